/*
 * Smart list filters evaluated in the database (docs/behaviour.md §25):
 * the filter rules of a smart list compiled into one boolean SQL
 * expression over the lead table (aliased l) with its bound values, and
 * the reads that run it for the campaign engine: the leads a batch
 * campaign's filters select, in keyset pages, and whether one lead
 * passes a trigger campaign's filters.
 *
 * sl_filter_build is pure (no database; repo_sl_filter_sql.c): the text
 * it writes comes only from that file's tables and the catalogues' column
 * names, every value of a condition is a bound parameter.  The reads and
 * the custom object catalogue's load are repo_sl_filter.c's.  A rule it
 * cannot evaluate (a
 * rule type mauto records nothing for, an operator or value it does not
 * understand, a filter over the bounds below) refuses the whole filter
 * with a message naming the rule: nothing is treated as true.
 */
#ifndef MAUTO_REPO_REPO_SL_FILTER_H
#define MAUTO_REPO_REPO_SL_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/smartlist.h"

struct arena;
struct db;
struct lead_schema;

/* The most values one condition takes. */
#define SLF_MAX_VALUES		100
/* The most bound values of a whole filter. */
#define SLF_MAX_BINDS		4000
/* The longest expression text, in bytes. */
#define SLF_MAX_SQL_BYTES	(256 * 1024)
/* The longest "in past" amount: 100 years in hours. */
#define SLF_MAX_PAST		876600

/* What a bound value is. */
enum slf_kind {
	SLF_STR,
	SLF_I64,
	SLF_DBL,
	SLF_TIME	/* UTC milliseconds since the epoch */
};

/* One bound value; s is owned by the filter. */
struct slf_bind {
	enum slf_kind	 kind;
	const char	*s;
	int64_t		 i;
	double		 d;
};

struct sl_filter {
	char		*where;		/* owned; "1" when nothing filters */
	struct slf_bind	*binds;		/* owned, in the order of the ?s */
	size_t		 nbinds;
	size_t		 cap;		/* allocated binds */
};

/*
 * One approved field of a custom object type: a constraint of the type's
 * filter (rule type SL_CO_RULE_BASE + type_id).  Strings borrowed.
 */
struct slf_co_field {
	int32_t		 type_id;	/* co_type.id */
	int32_t		 ref_id;	/* co_field_ref.id: constraint id */
	const char	*name;		/* API name = record column */
	const char	*data_type;	/* "string", "integer", "link", ... */
	const char	*related_object; /* a link's: "lead" or a type; NULL */
	const char	*related_field;	/* a link's key: "id", "email", ... */
};

/* The custom object catalogue a filter reads: approved fields by type. */
struct slf_co {
	const struct slf_co_field	*fields;
	size_t				 n;
};

/*
 * The approved fields of every custom object type whose record table
 * exists, into *out (strings and array in the arena a).  Returns 0 or a
 * negative repo_err.
 */
int	repo_sl_filter_co_load(struct db *db, struct arena *a,
	    struct slf_co *out);

/*
 * Compiles the filter rules of rules[0..n) (trigger rules are skipped:
 * they are the engine's; custom logic numbers count every rule, as the
 * smart list numbers them, and a trigger's number stands for true) under
 * match_type ("all", "any", or "custom" with logic) into *out, dated
 * now_ms (UTC ms, the engine's clock: "in past 7 days" is measured from
 * it).  A list with no filter selects every lead (where "1").  schema:
 * the lead schema, mapping attribute ids to columns and data types.
 * Returns 0 (out to be cleared with sl_filter_clear), or -1 with out
 * empty and msg (msg_size bytes) naming the first rule mauto cannot
 * evaluate, in the words error 709 carries: "Filter 2 'Visited Web Page'
 * cannot be evaluated: mauto records no web page visits".  Custom object
 * filters are refused here: sl_filter_build_co evaluates them.
 */
int	sl_filter_build(const struct lead_schema *schema,
	    const struct smartlist_rule *rules, size_t n,
	    const char *match_type, const char *logic, int64_t now_ms,
	    struct sl_filter *out, char *msg, size_t msg_size);

/*
 * sl_filter_build with the custom object catalogue co
 * (repo_sl_filter_co_load), so custom object filters are evaluated: a
 * lead passes "Has <type>" when a record of the type links to it (by the
 * type's link field to a lead key) and meets the rule's conditions on
 * its fields.  sl_filter_build refuses those filters (it has no
 * catalogue); co NULL is the same.
 */
int	sl_filter_build_co(const struct lead_schema *schema,
	    const struct slf_co *co, const struct smartlist_rule *rules,
	    size_t n, const char *match_type, const char *logic,
	    int64_t now_ms, struct sl_filter *out, char *msg,
	    size_t msg_size);

/* Frees what f owns and zeroes it (a zeroed f is fine). */
void	sl_filter_clear(struct sl_filter *f);

/*
 * The lead ids f selects with id > after_id, ascending, at most max (1 or
 * more) into ids (*n of them): keyset pages for a batch run.  Returns 0 or
 * a negative repo_err.
 */
int	repo_sl_filter_leads(struct db *db, const struct sl_filter *f,
	    int64_t after_id, size_t max, int64_t *ids, size_t *n);

/*
 * Whether lead lead_id passes f (a trigger campaign's filters) into
 * *match (false for a lead that does not exist).  Returns 0 or a
 * negative repo_err.
 */
int	repo_sl_filter_match(struct db *db, const struct sl_filter *f,
	    int64_t lead_id, bool *match);

#endif
