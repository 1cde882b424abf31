/* Framing of the button box protocol: CRC-16/CCITT-FALSE, COBS, and a byte-at-a-time receiver. */
#include "frame.h"

uint16_t frame_crc16(const uint8_t *data, uint8_t n, uint16_t crc)
{
    while (n--) {
        crc ^= (uint16_t)(*data++) << 8;
        for (uint8_t bit = 0; bit < 8; bit++)
            crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
}

uint8_t frame_cobs_encode(const uint8_t *src, uint8_t n, uint8_t *dst)
{
    uint8_t code_at = 0; /* where the pending code byte goes */
    uint8_t out = 1;
    uint8_t code = 1;
    for (uint8_t i = 0; i < n; i++) {
        if (src[i] == 0) {
            dst[code_at] = code;
            code_at = out++;
            code = 1;
        } else {
            dst[out++] = src[i];
            if (++code == 0xFF) {
                dst[code_at] = code;
                code_at = out++;
                code = 1;
            }
        }
    }
    dst[code_at] = code;
    return out;
}

int16_t frame_cobs_decode(const uint8_t *src, uint8_t n, uint8_t *dst, uint8_t max)
{
    uint8_t in = 0;
    uint8_t out = 0;
    while (in < n) {
        uint8_t code = src[in++];
        if (code == 0)
            return -1;
        for (uint8_t k = 1; k < code; k++) {
            if (in >= n || out >= max || src[in] == 0)
                return -1;
            dst[out++] = src[in++];
        }
        if (code != 0xFF && in < n) {
            if (out >= max)
                return -1;
            dst[out++] = 0;
        }
    }
    return out;
}

uint8_t frame_build(uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t plen, uint8_t *out)
{
    uint8_t body[FRAME_BODY_MAX];
    body[0] = type;
    body[1] = seq;
    body[2] = plen;
    for (uint8_t i = 0; i < plen; i++)
        body[FRAME_HEADER + i] = payload[i];
    uint8_t n = (uint8_t)(FRAME_HEADER + plen);
    uint16_t crc = frame_crc16(body, n, 0xFFFFu);
    body[n++] = (uint8_t)(crc & 0xFF);
    body[n++] = (uint8_t)(crc >> 8);
    uint8_t len = frame_cobs_encode(body, n, out);
    out[len++] = 0;
    return len;
}

void frame_rx_reset(frame_rx_t *rx)
{
    rx->n = 0;
    rx->overflow = 0;
}

enum frame_result frame_rx_feed(frame_rx_t *rx, uint8_t byte, uint8_t *body, uint8_t *body_len)
{
    if (byte != 0) {
        if (rx->n < sizeof rx->buf)
            rx->buf[rx->n++] = byte;
        else
            rx->overflow = 1;
        return FRAME_NONE;
    }
    uint8_t n = rx->n;
    uint8_t overflow = rx->overflow;
    frame_rx_reset(rx);
    if (n == 0 && !overflow)
        return FRAME_NONE;
    if (overflow)
        return FRAME_BAD;
    int16_t len = frame_cobs_decode(rx->buf, n, body, FRAME_BODY_MAX);
    if (len < (int16_t)FRAME_OVERHEAD)
        return FRAME_BAD;
    if (body[2] != (uint8_t)(len - FRAME_OVERHEAD))
        return FRAME_BAD;
    uint8_t m = (uint8_t)(len - 2);
    uint16_t crc = (uint16_t)(body[m] | ((uint16_t)body[m + 1] << 8));
    if (frame_crc16(body, m, 0xFFFFu) != crc)
        return FRAME_BAD;
    *body_len = m;
    return FRAME_OK;
}
