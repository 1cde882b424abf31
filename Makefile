# Rummy Table Kit — one command to test, one to run the demo.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Debian packages the firmware, the simulator and the screen need.
DEB_PACKAGES := gcc-avr avr-libc binutils-avr simavr libsimavr-dev libelf-dev pkg-config fonts-dejavu-core shellcheck

.PHONY: test demo lint typecheck pytest deb venv firmware sim bench clean

test: venv lint typecheck pytest

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(MAKE) --no-print-directory deb
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Installs missing Debian packages when run as root; otherwise only says what is missing.
deb:
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else echo "note: missing Debian packages (install as root):$$missing"; fi; \
	fi

lint: venv
	$(BIN)/ruff check .

# vision/train needs torch (the train extra), so it is type-checked only where that is installed:
# .venv/bin/mypy vision/train
typecheck: venv
	$(BIN)/mypy engine vision --exclude 'vision/train/'

pytest: venv
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -q

demo: venv
	@if $(BIN)/tablekit demo --help >/dev/null 2>&1; then $(BIN)/tablekit demo; \
	else $(BIN)/python bench/judge_examples.py; fi

bench: venv
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
