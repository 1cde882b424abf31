/* Button box firmware: debounced buttons, seat LEDs, buzzer, and the box side of the serial protocol.
 *
 * One 1 ms tick (Timer0) drives everything; between ticks the CPU sleeps. Received bytes are
 * decoded as they arrive.
 *
 * Debouncing reacts quickly and locks out afterwards: a button's new level counts as an edge as
 * soon as CONFIRM_SAMPLES samples in a row (1 ms apart) agree on it, so a press reaches the host
 * within a few ms; for LOCKOUT_MS after an edge that button is not looked at, so its contact
 * bounce cannot make a second edge. A glitch shorter than CONFIRM_SAMPLES - 1 ms (line noise, a
 * spike picked up by a long seat cable) is never an edge, held button or idle one: a glitch that
 * was an edge would be a press and, after the lockout, a release, which a table takes for a
 * tap. The edge is stamped with its first sample. BUTTON events wait in a queue of 16 and go out one at a time: the
 * head is re-sent every 100 ms with the same seq until the host acknowledges it (10 tries at
 * most), so the host sees them in order. Nothing waits for the host, and a watchdog resets the
 * board if the loop ever stalls.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <util/atomic.h>

#include "board.h"
#include "frame.h"
#include "uart.h"

#ifndef FIRMWARE_NAME
#define FIRMWARE_NAME "tablekit-box 1.0"
#endif
/* HELLO carries at most 16 bytes of name (serial protocol): a longer one is refused here,
 * where it would otherwise overflow the frame being built */
_Static_assert(sizeof(FIRMWARE_NAME) - 1 <= 16, "FIRMWARE_NAME: 16 characters at most");

enum {
    PROTOCOL_VERSION = 1,
    CONFIRM_SAMPLES = 5, /* samples in a row at the new level that make an edge */
    LOCKOUT_MS = 20,     /* after an edge, the button's bounce is not looked at */
    RESEND_MS = 100,
    MAX_TRIES = 10,
    HEARTBEAT_MS = 1000,
    QUEUE_SIZE = 16,
};

enum {
    MSG_HELLO = 0x01, MSG_BUTTON = 0x02, MSG_HEARTBEAT = 0x03, MSG_ACK = 0x04,
    MSG_HELLO_REQ = 0x81, MSG_LED = 0x82, MSG_BUZZ = 0x83, MSG_HOST_ACK = 0x84,
};

enum { EVENT_PRESS = 1, EVENT_RELEASE = 2 };
enum { LED_OFF = 0, LED_ON = 1, LED_SLOW = 2, LED_FAST = 3 };

typedef struct {
    uint8_t button;
    uint8_t event;
    uint32_t t_ms;
} button_event_t;

static const board_input_t seat_inputs[8] = BOARD_INPUTS; /* only the first SEATS are read */
static const board_input_t menu_ok[2] = {BOARD_MENU, BOARD_OK};

static volatile uint32_t clock_ms;

/* Box state */
static uint8_t seq_next;
static uint16_t dropped;
/* the last LED and the last BUZZ applied, each by its own seq: a repeat of either (its ack
 * lost) is ignored even when a command of the other kind came between */
static int16_t last_led_seq = -1;
static int16_t last_buzz_seq = -1;

static button_event_t queue[QUEUE_SIZE];
static uint8_t q_head, q_count;
static uint8_t head_in_flight, head_seq, head_tries;
static uint32_t head_sent_ms;

static uint16_t stable;          /* debounced state, bit set = pressed */
static uint8_t differ[BUTTONS];  /* samples in a row at a level other than the stable one */
static uint8_t lockout[BUTTONS]; /* ms left in which the button is not looked at */

static uint8_t led_mode[SEATS];
static uint8_t led_shown = 0xFF; /* forces the first write */
static uint16_t buzz_left;

/* Clear the watchdog early: after a watchdog reset it stays armed at its shortest period. */
void early_wdt_off(void) __attribute__((naked, used, section(".init3")));
void early_wdt_off(void)
{
    MCUSR = 0;
    wdt_disable();
}

ISR(TIMER0_COMPA_vect)
{
    clock_ms++;
}

static uint32_t now_ms(void)
{
    uint32_t t;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { t = clock_ms; }
    return t;
}

static void count_drop(void)
{
    if (dropped != 0xFFFFu)
        dropped++;
}

static uint8_t send(uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t plen)
{
    uint8_t out[FRAME_ENCODED_MAX + 1];
    uint8_t n = frame_build(type, seq, payload, plen, out);
    return uart_write(out, n);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void send_hello(void)
{
    static const char name[] = FIRMWARE_NAME;
    uint8_t payload[2 + sizeof name - 1];
    payload[0] = PROTOCOL_VERSION;
    payload[1] = BUTTONS;
    for (uint8_t i = 0; i < sizeof name - 1; i++)
        payload[2 + i] = (uint8_t)name[i];
    seq_next = 0;
    last_led_seq = -1;
    last_buzz_seq = -1;
    head_in_flight = 0; /* the head gets a fresh seq after the HELLO */
    send(MSG_HELLO, seq_next++, payload, sizeof payload);
}

static void send_heartbeat(uint32_t now)
{
    uint8_t payload[6];
    put_u32(payload, now);
    payload[4] = (uint8_t)dropped;
    payload[5] = (uint8_t)(dropped >> 8);
    send(MSG_HEARTBEAT, seq_next++, payload, sizeof payload);
}

static void ack_host(uint8_t host_seq)
{
    send(MSG_ACK, seq_next++, &host_seq, 1);
}

static void enqueue_event(uint8_t button, uint8_t event, uint32_t t)
{
    if (q_count >= QUEUE_SIZE) {
        count_drop();
        return;
    }
    button_event_t *e = &queue[(uint8_t)(q_head + q_count) % QUEUE_SIZE];
    e->button = button;
    e->event = event;
    e->t_ms = t;
    q_count++;
}

static void pop_head(void)
{
    q_head = (uint8_t)((q_head + 1u) % QUEUE_SIZE);
    q_count--;
    head_in_flight = 0;
}

/* Sends the head of the queue when it is new or due again. */
static void service_queue(uint32_t now)
{
    if (q_count == 0)
        return;
    if (head_in_flight) {
        if ((uint32_t)(now - head_sent_ms) < RESEND_MS)
            return;
        if (head_tries >= MAX_TRIES) {
            pop_head();
            count_drop();
            if (q_count == 0)
                return;
        }
    }
    if (!head_in_flight) {
        head_in_flight = 1;
        head_seq = seq_next++;
        head_tries = 0;
    }
    const button_event_t *e = &queue[q_head];
    uint8_t payload[6];
    payload[0] = e->button;
    payload[1] = e->event;
    put_u32(payload + 2, e->t_ms);
    if (send(MSG_BUTTON, head_seq, payload, sizeof payload)) {
        head_tries++;
        head_sent_ms = now;
    }
}

static void handle_frame(const uint8_t *body, uint8_t n, uint32_t now)
{
    uint8_t type = body[0], seq = body[1], plen = body[2];
    const uint8_t *p = body + FRAME_HEADER;
    (void)n;
    switch (type) {
    case MSG_HELLO_REQ:
        if (plen != 0)
            break;
        send_hello();
        service_queue(now);
        return;
    case MSG_HOST_ACK:
        if (plen != 1)
            break;
        if (head_in_flight && p[0] == head_seq) {
            pop_head();
            service_queue(now);
        }
        return;
    case MSG_LED:
    case MSG_BUZZ:
        if (plen != 2)
            break;
        if (type == MSG_LED && last_led_seq != seq) {
            if (p[0] < SEATS && p[1] <= LED_FAST)
                led_mode[p[0]] = p[1];
            last_led_seq = seq;
        } else if (type == MSG_BUZZ && last_buzz_seq != seq) {
            buzz_left = (uint16_t)(p[0] | ((uint16_t)p[1] << 8));
            last_buzz_seq = seq;
        }
        ack_host(seq);
        return;
    default:
        break;
    }
    count_drop(); /* unknown type or a payload of the wrong size */
}

static void poll_uart(uint32_t now)
{
    static frame_rx_t rx;
    uint8_t body[FRAME_BODY_MAX];
    uint8_t n;
    int16_t c;
    while ((c = uart_read()) >= 0) {
        enum frame_result r = frame_rx_feed(&rx, (uint8_t)c, body, &n);
        if (r == FRAME_OK)
            handle_frame(body, n, now);
        else if (r == FRAME_BAD)
            count_drop();
    }
}

static uint8_t read_pressed(uint8_t i)
{
    const board_input_t *in = i < SEATS ? &seat_inputs[i] : &menu_ok[i - SEATS];
    return !(*in->pin & _BV(in->bit));
}

static void buttons_init(void)
{
    for (uint8_t i = 0; i < BUTTONS; i++) {
        const board_input_t *in = i < SEATS ? &seat_inputs[i] : &menu_ok[i - SEATS];
        *in->ddr &= (uint8_t)~_BV(in->bit);
        *in->port |= _BV(in->bit);
    }
}

/* Once a millisecond: an edge as soon as CONFIRM_SAMPLES samples in a row show the new level,
 * then LOCKOUT_MS in which that button's bounce is ignored. */
static void scan_buttons(uint32_t now)
{
    for (uint8_t i = 0; i < BUTTONS; i++) {
        if (lockout[i]) {
            lockout[i]--;
            continue;
        }
        uint16_t mask = (uint16_t)1u << i;
        uint8_t raw = read_pressed(i);
        uint8_t was = (stable & mask) != 0;
        if (raw == was) {
            differ[i] = 0;
            continue;
        }
        if (++differ[i] < CONFIRM_SAMPLES)
            continue;
        differ[i] = 0;
        lockout[i] = LOCKOUT_MS;
        stable ^= mask;
        /* stamp the edge with the first sample of the new level */
        enqueue_event(i, raw ? EVENT_PRESS : EVENT_RELEASE, now - (CONFIRM_SAMPLES - 1));
    }
}

static void shift_leds(uint8_t bits)
{
    for (int8_t b = 7; b >= 0; b--) {
        if (bits & (1u << b))
            LED_PORT |= _BV(LED_DATA);
        else
            LED_PORT &= (uint8_t)~_BV(LED_DATA);
        LED_PORT |= _BV(LED_CLOCK);
        LED_PORT &= (uint8_t)~_BV(LED_CLOCK);
    }
    LED_PORT |= _BV(LED_LATCH);
    LED_PORT &= (uint8_t)~_BV(LED_LATCH);
}

static void update_outputs(uint32_t now)
{
    uint8_t slow = (now % 1000u) < 500u;
    uint8_t fast = (now % 250u) < 125u;
    uint8_t bits = 0;
    for (uint8_t i = 0; i < SEATS; i++) {
        uint8_t m = led_mode[i];
        if (m == LED_ON || (m == LED_SLOW && slow) || (m == LED_FAST && fast))
            bits |= (uint8_t)(1u << i);
    }
    if (bits != led_shown) {
        shift_leds(bits);
        led_shown = bits;
    }
    if (buzz_left) {
        BUZZER_PORT |= _BV(BUZZER_BIT);
        buzz_left--;
    } else {
        BUZZER_PORT &= (uint8_t)~_BV(BUZZER_BIT);
    }
}

static void tick(uint32_t now)
{
    static uint32_t next_heartbeat = HEARTBEAT_MS;
    scan_buttons(now);
    update_outputs(now);
    service_queue(now);
    if ((int32_t)(now - next_heartbeat) >= 0) {
        next_heartbeat = now + HEARTBEAT_MS;
        send_heartbeat(now);
    }
}

static void hardware_init(void)
{
    buttons_init();
    LED_DDR |= _BV(LED_DATA) | _BV(LED_CLOCK) | _BV(LED_LATCH);
    BUZZER_DDR |= _BV(BUZZER_BIT);
    /* Timer0: CTC, clk/64, 250 counts = 1 ms at 16 MHz */
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
    uart_init();
    set_sleep_mode(SLEEP_MODE_IDLE);
    wdt_enable(WDTO_250MS);
}

int main(void)
{
    hardware_init();
    sei();
    static const uint8_t delimiter = 0; /* ends whatever half frame the host holds */
    uart_write(&delimiter, 1);
    send_hello();
    uint32_t done = now_ms();
    for (;;) {
        wdt_reset();
        uint32_t now = now_ms();
        poll_uart(now);
        while (done != now) {
            done++;
            tick(done);
        }
        cli();
        if (!uart_rx_pending() && clock_ms == done) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}
