/* UART0 at 115200 8N1 with interrupt-driven ring buffers; nothing here ever waits for the host. */
#include "uart.h"

#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#define RX_SIZE 128u /* powers of two: indices wrap with a mask */
#define TX_SIZE 256u

static volatile uint8_t rx_buf[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
static volatile uint8_t tx_buf[TX_SIZE];
static volatile uint8_t tx_head, tx_tail; /* uint8_t wraps at 256 == TX_SIZE */

void uart_init(void)
{
    /* 16 MHz, U2X: UBRR = 16 gives 117647 baud (+2.1 %), the usual choice at 115200. */
    UCSR0A = _BV(U2X0); /* before UBRR0: simavr computes the bit time when UBRR0L is written */
    UBRR0 = 16;
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    /* Reading UCSR0A with the receiver empty is what tells simavr's UART to accept more
     * bytes from its pty (its XON); on a real chip the read is harmless. */
    (void)UCSR0A;
    uint8_t next = (uint8_t)((rx_head + 1u) & (RX_SIZE - 1u));
    if (next == rx_tail)
        return; /* full: the byte is lost, and the frame it belonged to fails its CRC */
    rx_buf[rx_head] = byte;
    rx_head = next;
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buf[tx_tail];
    tx_tail = (uint8_t)(tx_tail + 1u);
}

int16_t uart_read(void)
{
    if (rx_head == rx_tail)
        return -1;
    uint8_t byte = rx_buf[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1u) & (RX_SIZE - 1u));
    return byte;
}

uint8_t uart_rx_pending(void)
{
    return rx_head != rx_tail;
}

uint8_t uart_write(const uint8_t *data, uint8_t n)
{
    uint8_t used = (uint8_t)(tx_head - tx_tail);
    if ((uint16_t)used + n > TX_SIZE - 1u)
        return 0;
    uint8_t head = tx_head;
    for (uint8_t i = 0; i < n; i++) {
        tx_buf[head] = data[i];
        head = (uint8_t)(head + 1u);
    }
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE)
    {
        tx_head = head;
        UCSR0B |= _BV(UDRIE0);
    }
    return 1;
}
