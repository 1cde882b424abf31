/* Virtual button box: runs the real firmware .hex in simavr at wall-clock speed, UART0 on a pty.
 *
 * Usage: boxsim FIRMWARE.hex|.elf
 * Prints "pty /dev/pts/N" once the UART is bridged, then "ready". Reads commands on stdin,
 * one per line, and answers each with one line on stdout:
 *   press N | release N  -> "ok N <CLOCK_MONOTONIC ns when the pin changed>"
 *   wiggle N LEVEL CHANGES US
 *                        -> "ok N <ns>": button N to LEVEL (1 pressed, 0 released) now, then
 *                           CHANGES more changes of level, one every US microseconds of
 *                           simulated time (contact bounce: an even CHANGES ends at LEVEL;
 *                           a glitch on the line: LEVEL opposite to the button's, CHANGES 1)
 *   led?                 -> "leds 0101...."   (one digit per seat LED, seat 0 first)
 *   buzz?                -> "buzz 0|1"
 *   time?                -> "time <simulated ms>"
 *   quit (or EOF)        -> exits at once
 * Pin map: keep in step with hardware/firmware/src/board.h.
 *
 * Everything runs on one thread. The pty is bridged here rather than with simavr's uart_pty
 * part, whose own thread feeds the UART concurrently with the simulation (bytes stalled for
 * about a second under floods of input) and whose stop function can hang. Between 1 ms
 * slices of simulated time the harness waits in poll() on the pty and stdin, so input from
 * the host is picked up at once while the simulation keeps pace with the wall clock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_extint.h"
#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_cycle_timers.h"
#include "sim_elf.h"
#include "sim_hex.h"
#include "sim_irq.h"

#define F_CPU 16000000u
#define SLICE_CYCLES (F_CPU / 1000u) /* run 1 ms of simulated time between checks */

typedef struct {
    char port;
    int bit;
} pin_t;

/* Seats 0..7, MENU, OK: active low. */
static const pin_t buttons[] = {
    {'D', 2}, {'D', 3}, {'D', 4}, {'D', 5}, {'D', 6}, {'D', 7}, {'B', 0}, {'B', 1}, {'C', 0}, {'C', 1},
};
#define NBUTTONS (int)(sizeof buttons / sizeof buttons[0])

enum { PIN_LATCH = 2, PIN_DATA = 3, PIN_BUZZER = 4, PIN_CLOCK = 5 }; /* all on port B */

static avr_t *avr;

/* ---- the pty: bytes from the host wait here until the UART has room ---------------------- */

static int pty_master = -1;
static avr_irq_t *uart_input;
static int uart_xon = 1;
static uint8_t host_bytes[4096];
static size_t host_len, host_done;

static void feed_uart(void)
{
    while (uart_xon && host_done < host_len)
        avr_raise_irq(uart_input, host_bytes[host_done++]);
    if (host_done == host_len)
        host_done = host_len = 0;
}

static void read_pty(void)
{
    if (host_len != 0)
        return; /* still feeding the last read: leave the rest in the kernel's buffer */
    ssize_t r = read(pty_master, host_bytes, sizeof host_bytes);
    if (r > 0) {
        host_len = (size_t)r;
        host_done = 0;
        feed_uart();
    }
}

static void on_uart_output(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    uint8_t byte = (uint8_t)value;
    /* Nobody reading, or reading too slowly: the byte is lost, as on a real line. */
    if (write(pty_master, &byte, 1) < 0 && errno != EAGAIN)
        perror("boxsim: pty write");
}

static void on_uart_xon(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (value) {
        uart_xon = 1;
        feed_uart();
    }
}

static void on_uart_xoff(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (value)
        uart_xon = 0;
}

static const char *open_pty(void)
{
    static char name[128];
    int slave;
    if (openpty(&pty_master, &slave, name, NULL, NULL) < 0) {
        perror("boxsim: openpty");
        exit(1);
    }
    struct termios tio;
    tcgetattr(slave, &tio);
    cfmakeraw(&tio);
    tcsetattr(slave, TCSANOW, &tio);
    fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);
    /* The slave stays open here too, so the master never sees a hang-up between two hosts.
     * When this process dies, the host's reads fail: a pulled cable. */
    (void)slave;

    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    /* no console echo of the binary stream, and no usleep() on every UCSR0A read */
    flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POOL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    uart_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart_output, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                            on_uart_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                            on_uart_xoff, NULL);
    return name;
}

/* ---- pins: buttons in, LEDs (through a 74HC595 model) and buzzer out ----------------------- */

/* Shift on the clock's rising edge, copy to the outputs on the latch's. */
static struct {
    uint32_t data, clock, latch;
    uint8_t shift, out;
} hc595;
static uint32_t buzzer;

static void on_pin(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    switch ((int)(intptr_t)param) {
    case PIN_DATA:
        hc595.data = value;
        break;
    case PIN_CLOCK:
        if (value && !hc595.clock)
            hc595.shift = (uint8_t)((hc595.shift << 1) | (hc595.data ? 1 : 0));
        hc595.clock = value;
        break;
    case PIN_LATCH:
        if (value && !hc595.latch)
            hc595.out = hc595.shift;
        hc595.latch = value;
        break;
    case PIN_BUZZER:
        buzzer = value;
        break;
    }
}

/* A button pulls its pin low. The level is also registered as the pin's "external" state:
 * otherwise simavr re-applies the internal pull-up on every write to the port (the LED and
 * buzzer pins share port B) and a held button would read as released. */
static void drive_button(int i, int pressed)
{
    static uint8_t ext_mask[3], ext_value[3]; /* ports B, C, D */
    char port = buttons[i].port;
    int k = port - 'B';
    uint8_t bit = (uint8_t)(1u << buttons[i].bit);
    ext_mask[k] |= bit;
    ext_value[k] = pressed ? (uint8_t)(ext_value[k] & ~bit) : (uint8_t)(ext_value[k] | bit);
    avr_ioport_external_t ext = {.name = (unsigned long)port, .mask = ext_mask[k], .value = ext_value[k]};
    avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(port), &ext);
    avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), buttons[i].bit), pressed ? 0 : 1);
}

/* Level changes scheduled in simulated time by "wiggle": bounce and glitches on a button. */
static struct {
    int level;
    int left;
    avr_cycle_count_t gap;
} wiggles[NBUTTONS];

static avr_cycle_count_t wiggle_step(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    int i = (int)(intptr_t)param;
    if (wiggles[i].left <= 0)
        return 0;
    wiggles[i].level = !wiggles[i].level;
    drive_button(i, wiggles[i].level);
    return --wiggles[i].left > 0 ? when + wiggles[i].gap : 0;
}

static void wiggle(int i, int level, int changes, unsigned us)
{
    avr_cycle_timer_cancel(avr, wiggle_step, (void *)(intptr_t)i);
    drive_button(i, level);
    wiggles[i].level = level;
    wiggles[i].left = changes;
    wiggles[i].gap = (avr_cycle_count_t)us * (F_CPU / 1000000u);
    if (changes > 0 && us > 0)
        avr_cycle_timer_register(avr, wiggles[i].gap, wiggle_step, (void *)(intptr_t)i);
}

static void setup_pins(void)
{
    /* Seats 0 and 1 sit on INT0/INT1. In its default "strict" mode simavr polls a low INTn pin
     * every few cycles even with the interrupt disabled, which keeps the simulated CPU from
     * sleeping and slows the whole simulation below real time while those buttons are held. */
    avr_extint_set_strict_lvl_trig(avr, 0, 0);
    avr_extint_set_strict_lvl_trig(avr, 1, 0);
    for (int i = 0; i < NBUTTONS; i++)
        drive_button(i, 0);
    static const int watched[] = {PIN_DATA, PIN_CLOCK, PIN_LATCH, PIN_BUZZER};
    for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++)
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), watched[i]), on_pin,
                                (void *)(intptr_t)watched[i]);
}

/* ---- control channel ------------------------------------------------------------------------ */

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static void command(char *line)
{
    int n, level, changes;
    unsigned us;
    if (sscanf(line, "wiggle %d %d %d %u", &n, &level, &changes, &us) == 4) {
        if (n < 0 || n >= NBUTTONS || changes < 0 || us == 0) {
            reply("error bad wiggle");
            return;
        }
        wiggle(n, level != 0, changes, us);
        reply("ok %d %llu", n, (unsigned long long)mono_ns());
    } else if (sscanf(line, "press %d", &n) == 1 || sscanf(line, "release %d", &n) == 1) {
        if (n < 0 || n >= NBUTTONS) {
            reply("error no button %d", n);
            return;
        }
        wiggle(n, line[0] == 'p', 0, 1);
        reply("ok %d %llu", n, (unsigned long long)mono_ns());
    } else if (!strcmp(line, "led?")) {
        char bits[9];
        for (int i = 0; i < 8; i++)
            bits[i] = (hc595.out >> i) & 1 ? '1' : '0';
        bits[8] = 0;
        reply("leds %s", bits);
    } else if (!strcmp(line, "buzz?")) {
        reply("buzz %d", buzzer ? 1 : 0);
    } else if (!strcmp(line, "time?")) {
        reply("time %llu", (unsigned long long)(avr->cycle / (F_CPU / 1000u)));
    } else if (!strcmp(line, "quit")) {
        fflush(stdout);
        _exit(0);
    } else if (line[0]) {
        reply("error unknown command");
    }
}

/* Reads what stdin holds and runs each complete line; the caller knows stdin is readable. */
static void read_stdin(void)
{
    static char buf[4096];
    static size_t len;
    ssize_t r = read(0, buf + len, sizeof buf - 1 - len);
    if (r <= 0)
        _exit(0); /* whoever drove us is gone */
    len += (size_t)r;
    char *nl;
    while ((nl = memchr(buf, '\n', len)) != NULL) {
        *nl = 0;
        if (nl > buf && nl[-1] == '\r')
            nl[-1] = 0;
        command(buf);
        size_t used = (size_t)(nl - buf) + 1;
        memmove(buf, nl + 1, len - used);
        len -= used;
    }
    if (len == sizeof buf - 1)
        len = 0; /* a runaway line: forget it */
}

/* Waits up to timeout_ns for the host or the controller, and serves whichever is ready. */
static void wait_for_input(uint64_t timeout_ns)
{
    struct pollfd fds[2] = {{.fd = 0, .events = POLLIN}, {.fd = pty_master, .events = POLLIN}};
    struct timespec ts = {.tv_sec = (time_t)(timeout_ns / 1000000000ull),
                          .tv_nsec = (long)(timeout_ns % 1000000000ull)};
    if (host_len != 0)
        fds[1].fd = -1; /* the UART is full; do not spin on a readable pty */
    if (ppoll(fds, 2, &ts, NULL) <= 0)
        return;
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
        read_stdin();
    if (fds[1].revents & POLLIN)
        read_pty();
}

/* ---- main ----------------------------------------------------------------------------------- */

/* The firmware sleeps between ticks; the harness paces the whole simulation itself. */
static void no_sleep(avr_t *a, avr_cycle_count_t how_long)
{
    (void)a;
    (void)how_long;
}

static int load(const char *path)
{
    size_t n = strlen(path);
    if (n > 4 && !strcmp(path + n - 4, ".elf")) {
        elf_firmware_t fw;
        memset(&fw, 0, sizeof fw);
        if (elf_read_firmware(path, &fw))
            return -1;
        fw.frequency = F_CPU;
        avr_load_firmware(avr, &fw);
        return 0;
    }
    uint32_t size = 0, start = 0;
    uint8_t *code = read_ihex_file(path, &size, &start);
    if (!code || start + size > avr->flashend + 1u)
        return -1;
    memcpy(avr->flash + start, code, size);
    avr->codeend = start + size;
    free(code);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FIRMWARE.hex\n", argv[0]);
        return 2;
    }
    avr = avr_make_mcu_by_name("atmega328p");
    if (!avr || avr_init(avr) != 0) {
        fprintf(stderr, "boxsim: no atmega328p in this simavr\n");
        return 1;
    }
    avr->log = LOG_ERROR;
    if (load(argv[1])) {
        fprintf(stderr, "boxsim: cannot load %s\n", argv[1]);
        return 1;
    }
    avr->frequency = F_CPU;
    avr->sleep = no_sleep;
    setup_pins();
    reply("pty %s", open_pty());
    reply("ready");

    uint64_t start = mono_ns();
    avr_cycle_count_t next = SLICE_CYCLES;
    for (;;) {
        while (avr->cycle < next) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(stderr, "boxsim: firmware stopped (state %d)\n", state);
                _exit(1);
            }
        }
        next += SLICE_CYCLES;
        uint64_t sim_ns = (uint64_t)avr->cycle * 125u / 2u; /* 62.5 ns per cycle at 16 MHz */
        uint64_t wall_ns = mono_ns() - start;
        wait_for_input(sim_ns > wall_ns ? sim_ns - wall_ns : 0);
        if (host_len == 0)
            read_pty(); /* also when running behind, so input never waits for the clock */
    }
}
