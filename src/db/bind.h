/* Small MYSQL_BIND helpers (docs/style.md §1). */
#ifndef MAUTO_DB_BIND_H
#define MAUTO_DB_BIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mysql.h>

/* Input binds: the pointed-to values must live until execute. */
void	bind_i64(MYSQL_BIND *b, const int64_t *v);
void	bind_i32(MYSQL_BIND *b, const int32_t *v);
void	bind_str(MYSQL_BIND *b, const char *s, unsigned long *len);
void	bind_blob(MYSQL_BIND *b, const void *p, unsigned long *len);
void	bind_null(MYSQL_BIND *b);

/*
 * The same value bound at b[0] and b[1], for "? IS NULL OR col = ?"
 * filters: v (or *s, its length in *len) when present, NULL otherwise.
 */
void	bind_i32_twice(MYSQL_BIND *b, bool present, const int32_t *v);
void	bind_str_twice(MYSQL_BIND *b, const char *s, unsigned long *len);

/* Output binds. */
void	bind_out_i64(MYSQL_BIND *b, int64_t *v, my_bool *is_null);
void	bind_out_i32(MYSQL_BIND *b, int32_t *v, my_bool *is_null);
void	bind_out_str(MYSQL_BIND *b, char *buf, size_t size,
	    unsigned long *len, my_bool *is_null);

#endif
