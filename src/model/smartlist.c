/*
 * The filter logic of smart lists (smartlist.h).  The expression is
 * parsed by recursive descent into a tree of at most SL_LOGIC_MAX_BYTES
 * nodes (every node takes at least one byte of input), bounded in depth,
 * and written back from the tree: canonical output and renumbering share
 * the writer.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/smartlist.h"

enum node_kind { N_RULE, N_NOT, N_AND, N_OR };

struct node {
	enum node_kind	 kind;
	int		 rule;		/* N_RULE */
	int		 first;		/* first child, -1 for none */
	int		 next;		/* next sibling, -1 for none */
};

struct parser {
	const char	*p;
	int		 nrules;
	int		 depth;
	int		 n;
	struct node	 nodes[SL_LOGIC_MAX_BYTES];
	char		*msg;
};

static int	expr(struct parser *ps);

static int
fail(struct parser *ps, const char *m)
{
	if (ps->msg != NULL && ps->msg[0] == '\0')
		(void)snprintf(ps->msg, SL_MSG_BYTES, "%s", m);
	return -1;
}

static void
skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r' ||
	    *ps->p == '\n')
		ps->p++;
}

/* Whether the word w (lower case) is next, as a whole word; eats it. */
static bool
word(struct parser *ps, const char *w)
{
	size_t n = strlen(w), i;

	skip_space(ps);
	for (i = 0; i < n; i++)
		if (tolower((unsigned char)ps->p[i]) != w[i])
			return false;
	if (isalnum((unsigned char)ps->p[n]))
		return false;
	ps->p += n;
	return true;
}

static int
new_node(struct parser *ps, enum node_kind k)
{
	struct node *nd;

	if (ps->n >= SL_LOGIC_MAX_BYTES)
		return fail(ps, "Filter logic is too long");
	nd = &ps->nodes[ps->n];
	nd->kind = k;
	nd->rule = 0;
	nd->first = nd->next = -1;
	return ps->n++;
}

static int
factor(struct parser *ps)
{
	int id, child, v = 0;

	if (++ps->depth > SL_LOGIC_MAX_DEPTH)
		return fail(ps, "Filter logic is nested too deeply");
	skip_space(ps);
	if (word(ps, "not")) {
		if ((id = new_node(ps, N_NOT)) < 0 || (child = factor(ps)) < 0)
			return -1;
		ps->nodes[id].first = child;
	} else if (*ps->p == '(') {
		ps->p++;
		if ((id = expr(ps)) < 0)
			return -1;
		skip_space(ps);
		if (*ps->p != ')')
			return fail(ps, "Unbalanced parentheses in filter "
			    "logic");
		ps->p++;
	} else if (isdigit((unsigned char)*ps->p)) {
		while (isdigit((unsigned char)*ps->p)) {
			if (v <= SL_MAX_RULES)
				v = v * 10 + (*ps->p - '0');
			ps->p++;
		}
		if (isalpha((unsigned char)*ps->p))
			return fail(ps, "Unexpected text in filter logic");
		if (v < 1 || v > ps->nrules) {
			if (ps->msg != NULL && ps->msg[0] == '\0')
				(void)snprintf(ps->msg, SL_MSG_BYTES, "Rule %d "
				    "in filter logic does not exist (the list "
				    "has %d)", v, ps->nrules);
			return -1;
		}
		if ((id = new_node(ps, N_RULE)) < 0)
			return -1;
		ps->nodes[id].rule = v;
	} else if (*ps->p == ')')
		return fail(ps, "Unbalanced parentheses in filter logic");
	else if (*ps->p == '\0')
		return fail(ps, "Filter logic ends too early");
	else
		return fail(ps, "Unexpected text in filter logic");
	ps->depth--;
	return id;
}

/* A list of operands of op joined by the word w, by sub. */
static int
chain(struct parser *ps, enum node_kind op, const char *w,
    int (*sub)(struct parser *))
{
	int first, id, last, next;

	if ((first = sub(ps)) < 0)
		return -1;
	if (!word(ps, w))
		return first;
	if ((id = new_node(ps, op)) < 0)
		return -1;
	ps->nodes[id].first = last = first;
	do {
		if ((next = sub(ps)) < 0)
			return -1;
		ps->nodes[last].next = next;
		last = next;
	} while (word(ps, w));
	return id;
}

static int
term(struct parser *ps)
{
	return chain(ps, N_AND, "and", factor);
}

static int
expr(struct parser *ps)
{
	int id;

	if (++ps->depth > SL_LOGIC_MAX_DEPTH)
		return fail(ps, "Filter logic is nested too deeply");
	id = chain(ps, N_OR, "or", term);
	ps->depth--;
	return id;
}

/* Parses the whole of s; the root, or -1. */
static int
parse(struct parser *ps, const char *s, int nrules, char *msg)
{
	int root;

	ps->p = s;
	ps->nrules = nrules;
	ps->depth = 0;
	ps->n = 0;
	ps->msg = msg;
	if (msg != NULL)
		msg[0] = '\0';
	if (strlen(s) > SL_LOGIC_MAX_BYTES)
		return fail(ps, "Filter logic is too long");
	if ((root = expr(ps)) < 0)
		return -1;
	skip_space(ps);
	if (*ps->p == ')')
		return fail(ps, "Unbalanced parentheses in filter logic");
	if (*ps->p != '\0')
		return fail(ps, "Unexpected text in filter logic");
	return root;
}

/*
 * Drops the rules map deletes and renumbers the rest, below node id;
 * returns the node that stands for it, or -1 when nothing is left.
 */
static int
prune(struct parser *ps, int id, const int *map)
{
	struct node *nd = &ps->nodes[id];
	int c, next, kept = -1, last = -1, n = 0;

	switch (nd->kind) {
	case N_RULE:
		if ((nd->rule = map[nd->rule - 1]) == 0)
			return -1;
		return id;
	case N_NOT:
		if ((nd->first = prune(ps, nd->first, map)) < 0)
			return -1;
		return id;
	default:
		for (c = nd->first; c >= 0; c = next) {
			next = ps->nodes[c].next;
			if ((c = prune(ps, c, map)) < 0)
				continue;
			ps->nodes[c].next = -1;
			if (last < 0)
				kept = c;
			else
				ps->nodes[last].next = c;
			last = c;
			n++;
		}
		if (n == 0)
			return -1;
		if (n == 1)
			return kept;
		nd->first = kept;
		return id;
	}
}

struct out {
	char	*buf;
	size_t	 len;
	bool	 over;	/* the form did not fit */
};

static void
put(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->len + n > SL_LOGIC_MAX_BYTES) {
		n = SL_LOGIC_MAX_BYTES - o->len;
		o->over = true;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

/* Writes node id; parenthesised when it binds looser than its parent. */
static void
write_node(struct parser *ps, int id, enum node_kind parent, struct out *o)
{
	const struct node *nd = &ps->nodes[id];
	char num[16];
	bool paren = (nd->kind == N_OR && parent != N_OR) ||
	    (nd->kind == N_AND && parent == N_NOT);
	int c;

	if (paren)
		put(o, "(");
	switch (nd->kind) {
	case N_RULE:
		(void)snprintf(num, sizeof(num), "%d", nd->rule);
		put(o, num);
		break;
	case N_NOT:
		put(o, "not ");
		write_node(ps, nd->first, N_NOT, o);
		break;
	default:
		for (c = nd->first; c >= 0; c = ps->nodes[c].next) {
			if (c != nd->first)
				put(o, nd->kind == N_AND ? " and " : " or ");
			write_node(ps, c, nd->kind, o);
		}
		break;
	}
	if (paren)
		put(o, ")");
}

/* See smartlist.h. */
int
sl_logic_parse(const char *expr_text, int nrules, char *out, char *msg)
{
	static _Thread_local struct parser ps;
	struct out o = { out, 0, false };
	int root;

	out[0] = '\0';
	if ((root = parse(&ps, expr_text, nrules, msg)) < 0)
		return -1;
	write_node(&ps, root, N_OR, &o);
	if (o.over) {
		out[0] = '\0';
		(void)snprintf(msg, SL_MSG_BYTES, "Filter logic is too long");
		return -1;
	}
	return 0;
}

/* See smartlist.h. */
int
sl_logic_renumber(const char *expr_text, const int *map, int nold,
    char *out)
{
	static _Thread_local struct parser ps;
	struct out o = { out, 0, false };
	int root;

	out[0] = '\0';
	if ((root = parse(&ps, expr_text, nold, NULL)) < 0)
		return -1;
	if ((root = prune(&ps, root, map)) >= 0)
		write_node(&ps, root, N_OR, &o);
	if (o.over) {
		out[0] = '\0';
		return -1;
	}
	return 0;
}

/* See smartlist.h. */
int
sl_reorder(const int32_t *ids, int n, const int32_t *move_ids,
    const int *move_index, int nmoves, int *map, char *msg)
{
	bool *taken;
	int i, k, pos, rc = -1;

	msg[0] = '\0';
	if (n < 0 || n > SL_MAX_RULES || nmoves < 0) {
		(void)snprintf(msg, SL_MSG_BYTES, "Too many rules");
		return -1;
	}
	if ((taken = calloc((size_t)n + 1, sizeof(*taken))) == NULL) {
		(void)snprintf(msg, SL_MSG_BYTES, "Out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		map[i] = 0;
	for (k = 0; k < nmoves; k++) {
		for (i = 0; i < n && ids[i] != move_ids[k]; i++)
			;
		if (i == n) {
			(void)snprintf(msg, SL_MSG_BYTES, "Rule %ld is not a "
			    "rule of this smart list", (long)move_ids[k]);
			goto out;
		}
		if (move_index[k] < 1 || move_index[k] > n) {
			(void)snprintf(msg, SL_MSG_BYTES, "Index %d is out of "
			    "range 1 to %d", move_index[k], n);
			goto out;
		}
		if (map[i] != 0 || taken[move_index[k]]) {
			(void)snprintf(msg, SL_MSG_BYTES, "Rule %ld or index "
			    "%d is given twice", (long)move_ids[k],
			    move_index[k]);
			goto out;
		}
		map[i] = move_index[k];
		taken[move_index[k]] = true;
	}
	for (i = 0, pos = 1; i < n; i++) {
		if (map[i] != 0)
			continue;
		while (taken[pos])
			pos++;
		map[i] = pos;
		taken[pos] = true;
	}
	rc = 0;
out:
	free(taken);
	return rc;
}
