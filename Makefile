# Rummy Table Kit — one command to test, one to run the demo.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# What `make demo` installs: the kit and what it needs to run, nothing else.
RUN_STAMP := $(VENV)/.installed-run
# What `make test` adds: the Debian packages the firmware, simulator and tests need, and the
# development tools.
STAMP  := $(VENV)/.installed
# Debian packages the firmware, the simulator, the tests and the screen need (the Noto faces
# draw names in Indic scripts, Chinese, Japanese, Korean, Arabic and Hebrew; the club's tests
# start a real Mosquitto and PostgreSQL and look at the page in headless Chromium).
DEB_PACKAGES := gcc-avr avr-libc binutils-avr simavr libsimavr-dev libelf-dev pkg-config fonts-dejavu-core fonts-noto-core fonts-noto-cjk espeak-ng shellcheck \
	mosquitto postgresql chromium chromium-driver
export PYTHON

.PHONY: test demo lint typecheck imports pytest deb venv run-venv firmware sim bench clean

test: venv lint typecheck imports pytest

# The kit with its development tools (tests, linters).
venv: $(STAMP)

# The kit alone, enough to play the demo (in a window, or headless where there is no display).
run-venv: $(RUN_STAMP)

$(RUN_STAMP): pyproject.toml
	@echo "== setting up $(VENV): the kit and what it needs to run (pygame-ce, OpenCV, numpy, onnxruntime, pyserial, matplotlib)"
	hardware/install-kit.sh $(VENV) --editable
	touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP)
	@$(MAKE) --no-print-directory deb
	@echo "== adding the development tools to $(VENV) (pytest, hypothesis, ruff, mypy, onnx)"
	hardware/install-kit.sh $(VENV) --editable --extras dev --quiet
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
	$(BIN)/mypy engine vision display firmware_bridge tablekit bench --exclude 'vision/train/'

# No import circles among the kit's modules (prints any it finds).
imports: venv
	$(BIN)/python tests/import_graph.py

pytest: venv
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -q

demo: run-venv
	$(BIN)/tablekit demo

bench: venv
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
