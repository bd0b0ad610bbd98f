/*
 * Request ids (see rid.h).  The sequence state is per process: each
 * worker calls rid_init() after fork, so the file-static counter is the
 * worker's own.
 */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "util/rid.h"

#define RID_A_BITS	20		/* five hex digits */
#define RID_A_MASK	((1u << RID_A_BITS) - 1)
#define RID_INDEX_MASK	((1u << RID_WORKER_BITS) - 1)

static unsigned rid_index;
static uint32_t rid_counter;

void
rid_init(unsigned worker_index)
{
	rid_index = worker_index & RID_INDEX_MASK;
	rid_counter = 0;
}

/*
 * Writes v in lower-case hex, no leading zeros, at p; returns the end.
 * What printf's "%llx" writes, without its cost on every request.
 */
static char *
put_hex(char *p, unsigned long long v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[sizeof(v) * 2];
	size_t n = 0;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v != 0);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

const char *
rid_next(char *buf, size_t size)
{
	struct timespec ts;
	unsigned long long ms;
	unsigned a;
	char id[RID_BYTES], *end;
	size_t len;

	if (size == 0)
		return buf;
	(void)clock_gettime(CLOCK_REALTIME, &ts);
	ms = (unsigned long long)ts.tv_sec * 1000u +
	    (unsigned long long)ts.tv_nsec / 1000000u;
	a = (unsigned)((rid_counter << RID_WORKER_BITS | rid_index) &
	    RID_A_MASK);
	rid_counter++;
	/* "%x#%llx", cut to size as snprintf cuts. */
	end = put_hex(id, a);
	*end++ = '#';
	end = put_hex(end, ms);
	len = (size_t)(end - id);
	if (len > size - 1)
		len = size - 1;
	memcpy(buf, id, len);
	buf[len] = '\0';
	return buf;
}
