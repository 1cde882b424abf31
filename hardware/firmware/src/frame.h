/* Framing of the button box protocol: CRC-16/CCITT-FALSE, COBS, and a byte-at-a-time receiver.
 *
 * Plain C99 with no AVR headers, so the same file builds for the board and for host tests.
 * Wire format (see the serial protocol spec): COBS(type seq len payload crc_le) 0x00.
 */
#ifndef TABLEKIT_FRAME_H
#define TABLEKIT_FRAME_H

#include <stdint.h>

#define FRAME_BODY_MAX 64u                      /* longest body a receiver accepts */
#define FRAME_HEADER 3u                         /* type, seq, len */
#define FRAME_OVERHEAD 5u                       /* header + crc */
#define FRAME_PAYLOAD_MAX (FRAME_BODY_MAX - FRAME_OVERHEAD)
#define FRAME_ENCODED_MAX (FRAME_BODY_MAX + 2u) /* COBS adds one byte per 254, plus one */

enum frame_result { FRAME_NONE = 0, FRAME_OK = 1, FRAME_BAD = 2 };

typedef struct {
    uint8_t buf[FRAME_ENCODED_MAX];
    uint8_t n;
    uint8_t overflow;
} frame_rx_t;

uint16_t frame_crc16(const uint8_t *data, uint8_t n, uint16_t crc);

/* Encodes n bytes of src into dst (which must hold n + n/254 + 1 bytes); returns the length.
 * No delimiter is written. */
uint8_t frame_cobs_encode(const uint8_t *src, uint8_t n, uint8_t *dst);

/* Decodes n COBS bytes (no delimiter) into dst (at most max bytes).
 * Returns the decoded length, or -1 on a COBS error or overflow. */
int16_t frame_cobs_decode(const uint8_t *src, uint8_t n, uint8_t *dst, uint8_t max);

/* Builds a complete frame (COBS + delimiter) for type/seq/payload into out; returns its length.
 * out must hold FRAME_ENCODED_MAX + 1 bytes; plen must be <= FRAME_PAYLOAD_MAX. */
uint8_t frame_build(uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t plen, uint8_t *out);

void frame_rx_reset(frame_rx_t *rx);

/* Feeds one received byte. On FRAME_OK the checked body (type seq len payload, crc removed)
 * is in body (FRAME_BODY_MAX bytes) and *body_len holds its length. FRAME_BAD means a frame
 * was dropped (COBS error, bad CRC, wrong length, too long); an empty frame gives FRAME_NONE. */
enum frame_result frame_rx_feed(frame_rx_t *rx, uint8_t byte, uint8_t *body, uint8_t *body_len);

#endif
