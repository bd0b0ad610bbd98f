/*
 * Request ids (see rid.h).  The sequence state is per process: each
 * worker calls rid_init() after fork, so the file-static counter is the
 * worker's own.
 */
#include <stdint.h>
#include <stdio.h>
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

const char *
rid_next(char *buf, size_t size)
{
	struct timespec ts;
	unsigned long long ms;
	unsigned a;

	if (size == 0)
		return buf;
	(void)clock_gettime(CLOCK_REALTIME, &ts);
	ms = (unsigned long long)ts.tv_sec * 1000u +
	    (unsigned long long)ts.tv_nsec / 1000000u;
	a = (unsigned)((rid_counter << RID_WORKER_BITS | rid_index) &
	    RID_A_MASK);
	rid_counter++;
	(void)snprintf(buf, size, "%x#%llx", a, ms);
	return buf;
}
