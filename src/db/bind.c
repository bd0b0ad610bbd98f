#include <string.h>

#include "db/bind.h"

void
bind_i64(MYSQL_BIND *b, const int64_t *v)
{
	memset(b, 0, sizeof(*b));
	b->buffer_type = MYSQL_TYPE_LONGLONG;
	b->buffer = (void *)(uintptr_t)v;
}

void
bind_i32(MYSQL_BIND *b, const int32_t *v)
{
	memset(b, 0, sizeof(*b));
	b->buffer_type = MYSQL_TYPE_LONG;
	b->buffer = (void *)(uintptr_t)v;
}

void
bind_str(MYSQL_BIND *b, const char *s, unsigned long *len)
{
	memset(b, 0, sizeof(*b));
	b->buffer_type = MYSQL_TYPE_STRING;
	b->buffer = (void *)(uintptr_t)s;
	b->buffer_length = *len;
	b->length = len;
}

void
bind_blob(MYSQL_BIND *b, const void *p, unsigned long *len)
{
	memset(b, 0, sizeof(*b));
	b->buffer_type = MYSQL_TYPE_BLOB;
	b->buffer = (void *)(uintptr_t)p;
	b->buffer_length = *len;
	b->length = len;
}

void
bind_null(MYSQL_BIND *b)
{
	memset(b, 0, sizeof(*b));
	b->buffer_type = MYSQL_TYPE_NULL;
}

void
bind_out_i64(MYSQL_BIND *b, int64_t *v, my_bool *is_null)
{
	memset(b, 0, sizeof(*b));
	b->buffer_type = MYSQL_TYPE_LONGLONG;
	b->buffer = v;
	b->is_null = is_null;
}

void
bind_out_i32(MYSQL_BIND *b, int32_t *v, my_bool *is_null)
{
	memset(b, 0, sizeof(*b));
	b->buffer_type = MYSQL_TYPE_LONG;
	b->buffer = v;
	b->is_null = is_null;
}

void
bind_out_str(MYSQL_BIND *b, char *buf, size_t size, unsigned long *len,
    my_bool *is_null)
{
	memset(b, 0, sizeof(*b));
	b->buffer_type = MYSQL_TYPE_STRING;
	b->buffer = buf;
	b->buffer_length = size;
	b->length = len;
	b->is_null = is_null;
}

/* See bind.h. */
void
bind_i32_twice(MYSQL_BIND *b, bool present, const int32_t *v)
{
	if (present) {
		bind_i32(&b[0], v);
		bind_i32(&b[1], v);
	} else {
		bind_null(&b[0]);
		bind_null(&b[1]);
	}
}

/* See bind.h. */
void
bind_str_twice(MYSQL_BIND *b, const char *s, unsigned long *len)
{
	if (s != NULL) {
		*len = strlen(s);
		bind_str(&b[0], s, len);
		bind_str(&b[1], s, len);
	} else {
		bind_null(&b[0]);
		bind_null(&b[1]);
	}
}
