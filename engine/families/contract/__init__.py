"""The contract-rummy family: contracts and their meld reading (``contracts``), the family's
engine class and its data types (``variants``), its 23 games declared as data (``games``), and
play at the table, alone or in partnerships (``policy``)."""
