/* Pin map of the button box on an ATmega328P (Arduino Nano/Uno): buttons, LED shift register, buzzer.
 *
 * Buttons are active low with the internal pull-ups on. Seat LEDs hang off a 74HC595 driven by
 * three pins (data, shift clock, latch), Q0..Q7 = seat 0..7. The buzzer is an active buzzer
 * switched by an NPN transistor. Keep this table in step with hardware/WIRING.md.
 */
#ifndef TABLEKIT_BOARD_H
#define TABLEKIT_BOARD_H

#include <avr/io.h>

#ifndef SEATS
#define SEATS 8
#endif
#if SEATS < 1 || SEATS > 8
#error "SEATS must be 1..8"
#endif
#define BUTTONS (SEATS + 2)   /* seats, then MENU, then OK */
#define BUTTON_MENU SEATS
#define BUTTON_OK (SEATS + 1)

typedef struct {
    volatile uint8_t *pin;
    volatile uint8_t *port;
    volatile uint8_t *ddr;
    uint8_t bit;
} board_input_t;

/* Indexed by the seat (0..SEATS-1); MENU and OK follow. */
#define BOARD_INPUTS                                                                   \
    {                                                                                  \
        {&PIND, &PORTD, &DDRD, 2}, {&PIND, &PORTD, &DDRD, 3}, {&PIND, &PORTD, &DDRD, 4}, \
        {&PIND, &PORTD, &DDRD, 5}, {&PIND, &PORTD, &DDRD, 6}, {&PIND, &PORTD, &DDRD, 7}, \
        {&PINB, &PORTB, &DDRB, 0}, {&PINB, &PORTB, &DDRB, 1},                          \
    }
#define BOARD_MENU {&PINC, &PORTC, &DDRC, 0}
#define BOARD_OK {&PINC, &PORTC, &DDRC, 1}

/* 74HC595 for the seat LEDs, on the SPI pins so a later version may use the SPI unit. */
#define LED_PORT PORTB
#define LED_DDR DDRB
#define LED_LATCH PB2 /* D10 -> 595 pin 12 (ST_CP) */
#define LED_DATA PB3  /* D11 -> 595 pin 14 (DS) */
#define LED_CLOCK PB5 /* D13 -> 595 pin 11 (SH_CP) */

#define BUZZER_PORT PORTB
#define BUZZER_DDR DDRB
#define BUZZER_BIT PB4 /* D12 -> 1k -> NPN base */

#endif
