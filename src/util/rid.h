/*
 * Request ids in the real service's form "<A>#<B>" (docs/behaviour.md §0
 * "requestId format"): A is 1-5 lowercase hex digits, a per-worker
 * counter with the worker index in its low RID_WORKER_BITS bits, so two
 * live workers never produce the same A; B is the Unix time in
 * milliseconds in lowercase hex.  Within one worker A repeats only after
 * 2^(20 - RID_WORKER_BITS) requests, so an id is unique unless a worker
 * serves that many requests in one millisecond.
 */
#ifndef MAUTO_UTIL_RID_H
#define MAUTO_UTIL_RID_H

#include <stddef.h>

/* Enough for "fffff#" and 16 hex digits of milliseconds, with room. */
#define RID_BYTES	32
/* Bits of A that hold the worker index (the master's process slots). */
#define RID_WORKER_BITS	9

/*
 * Starts the id sequence of this process; worker_index is reduced to its
 * low RID_WORKER_BITS bits.  Call once per worker, after fork.
 */
void		 rid_init(unsigned worker_index);

/*
 * Writes the next id into buf (size bytes, RID_BYTES is always enough;
 * a smaller buffer gets a cut but terminated id) and returns buf.
 */
const char	*rid_next(char *buf, size_t size);

#endif
