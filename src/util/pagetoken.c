/*
 * Paging tokens (pagetoken.h).  The 14 bytes encoded are: a version and
 * kind byte, the position (8 bytes), the query signature (4 bytes) and a
 * check byte; the position is mixed with the signature so tokens of one
 * query do not look like a counter.
 */
#include <stdbool.h>
#include <string.h>

#include "util/pagetoken.h"

#define TOKEN_RAW	14
#define TOKEN_VERSION	0x50	/* high nibble: format; low: kind */

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/* See pagetoken.h. */
uint32_t
page_token_sig(uint32_t sig, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sig ^= (unsigned char)s[i];
		sig *= UINT32_C(16777619);
	}
	sig ^= 0x1f;
	sig *= UINT32_C(16777619);
	return sig;
}

/* The mask mixed into the position: the signature spread to 64 bits. */
static uint64_t
mask_of(uint32_t sig)
{
	uint64_t m = (uint64_t)sig * UINT64_C(0x9E3779B97F4A7C15);

	return m ^ (m >> 29);
}

static uint8_t
check_of(const uint8_t *raw, size_t n)
{
	uint8_t c = 0xA5;
	size_t i;

	for (i = 0; i < n; i++)
		c = (uint8_t)((c << 1 | c >> 7) ^ raw[i]);
	return c;
}

/* See pagetoken.h. */
void
page_token_encode(uint8_t kind, uint32_t sig, int64_t last,
    char out[PAGE_TOKEN_BYTES])
{
	uint8_t raw[TOKEN_RAW];
	uint64_t pos = (uint64_t)last ^ mask_of(sig);
	size_t i, bit, o = 0;

	raw[0] = (uint8_t)(TOKEN_VERSION | (kind & 0x0f));
	for (i = 0; i < 8; i++)
		raw[1 + i] = (uint8_t)(pos >> (56 - 8 * i));
	for (i = 0; i < 4; i++)
		raw[9 + i] = (uint8_t)(sig >> (24 - 8 * i));
	raw[13] = check_of(raw, 13);
	/* RFC 4648 base32: 112 bits are 23 symbols and one '=' of padding. */
	for (bit = 0; bit < TOKEN_RAW * 8; bit += 5) {
		unsigned v = 0;

		for (i = 0; i < 5; i++) {
			v <<= 1;
			if (bit + i < TOKEN_RAW * 8 &&
			    (raw[(bit + i) / 8] >> (7 - (bit + i) % 8) & 1))
				v |= 1;
		}
		out[o++] = alphabet[v];
	}
	while (o < PAGE_TOKEN_BYTES - 1)
		out[o++] = '=';
	out[o] = '\0';
}

/* See pagetoken.h. */
int
page_token_decode(const char *text, uint8_t kind, uint32_t sig,
    int64_t *last)
{
	uint8_t raw[TOKEN_RAW];
	const char *p;
	uint64_t pos = 0;
	uint32_t got = 0;
	size_t i, bit = 0, nsym = (TOKEN_RAW * 8 + 4) / 5;
	int r = -1;

	*last = 0;
	memset(raw, 0, sizeof(raw));
	if (text == NULL || strlen(text) != PAGE_TOKEN_BYTES - 1)
		goto out;
	for (i = 0; i < PAGE_TOKEN_BYTES - 1; i++) {
		if (i >= nsym) {
			if (text[i] != '=')
				goto out;
			continue;
		}
		if ((p = memchr(alphabet, text[i], 32)) == NULL ||
		    text[i] == '\0')
			goto out;
		for (bit = 0; bit < 5; bit++) {
			size_t b = i * 5 + bit;
			unsigned v = (unsigned)(p - alphabet);

			if (b >= TOKEN_RAW * 8) {
				/* The bits past the data must be zero. */
				if (v >> (4 - bit) & 1)
					goto out;
				continue;
			}
			if (v >> (4 - bit) & 1)
				raw[b / 8] |= (uint8_t)(1 << (7 - b % 8));
		}
	}
	if (raw[0] != (uint8_t)(TOKEN_VERSION | (kind & 0x0f)) ||
	    raw[13] != check_of(raw, 13))
		goto out;
	for (i = 0; i < 4; i++)
		got = got << 8 | raw[9 + i];
	if (got != sig)
		goto out;
	for (i = 0; i < 8; i++)
		pos = pos << 8 | raw[1 + i];
	pos ^= mask_of(sig);
	if (pos > (uint64_t)INT64_MAX)
		goto out;
	*last = (int64_t)pos;
	r = 0;
out:
	return r;
}
