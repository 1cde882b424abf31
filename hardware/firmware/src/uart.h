/* UART0 at 115200 8N1 with interrupt-driven ring buffers; nothing here ever waits for the host. */
#ifndef TABLEKIT_UART_H
#define TABLEKIT_UART_H

#include <stdint.h>

void uart_init(void);
/* Next received byte, or -1 when none is waiting. */
int16_t uart_read(void);
/* Queues n bytes only if all of them fit; returns 1 if queued, 0 if the buffer was too full. */
uint8_t uart_write(const uint8_t *data, uint8_t n);
uint8_t uart_rx_pending(void);

#endif
