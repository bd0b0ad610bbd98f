/*
 * An email version rendered for one lead without an HTTP call: what Get
 * Email Full Content answers, Send Sample Email sends and a campaign's
 * Send Email step (src/engine/mail.c) queues.  The composition of the
 * stores (the template, the snippets, the lead) with the pure rendering
 * of model/email_render.h, and the filling of lead tokens and My Tokens
 * (docs/behaviour.md §26): My Tokens first, as text in the HTML (a rich
 * text token's HTML stays HTML), so that a lead token a My Token's value
 * holds is filled too; then lead tokens in the parsed text and attribute
 * values.  A My Token takes the value the caller's overrides give it (a
 * campaign run's tokens), else the value in effect at the email's
 * program or folder (names compare exactly, as My Tokens are kept); a
 * name neither knows becomes "" when the caller resolves My Tokens (a
 * campaign's send), else it stays as it is.
 */
#ifndef MAUTO_MAIL_COMPOSE_H
#define MAUTO_MAIL_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mail/message.h"
#include "model/email_render.h"
#include "repo/repo_emails.h"

struct arena;
struct db;
struct html_doc;
struct json_object;
struct lead_schema;
struct repo_etpl;
struct repo_token;
struct tpl_outline;

/* The tokens one render fills. */
struct compose_tokens {
	const struct email_lead	*lead;	/* NULL: lead tokens stay */
	/* Overrides: names as "{{my.x}}", "my.x" or "x"; values borrowed. */
	const char *const	*names;
	const char *const	*values;
	size_t			 n;
	/* The My Tokens in effect at the place (repo_tokens_effective). */
	const struct repo_token	*my;
	size_t			 nmy;
	/* A My Token of no value becomes "" (else it stays as it is). */
	bool			 unknown_blank;
};

/*
 * An email_token_fn over a struct compose_tokens (arg) for My Tokens: the
 * value of the override named name, else of the token in effect of that
 * name; when neither has it, NULL with *known false, or true when
 * unknown_blank.
 */
const char	*compose_my_value(const char *name, void *arg, bool *known);

/*
 * s with the My Tokens, then the lead tokens, of tk filled (the subject
 * and the From name).  A heap string (free()), or NULL when s has no
 * token to fill.
 */
char	*compose_fill(const char *s, const struct compose_tokens *tk);

/*
 * Template id, the one an email version is made from, read into *tpl
 * (strings in the arena a) and parsed: its outline into *o
 * (tpl_outline_clear) and its document into *doc (html_free).  0, a
 * negative repo_err of the read, or -REPO_ERR_INTERNAL when the stored
 * template does not parse (nothing to clear then).
 */
int	compose_template(struct db *db, struct arena *a, int32_t id,
	    struct repo_etpl *tpl, struct tpl_outline *o,
	    struct html_doc **doc);

/*
 * The HTML of a version: the template's outline o and document doc
 * (changed; both NULL for an email not linked to a template) with the
 * content document content, snippets read through db into the arena a,
 * and the tokens of tk filled (NULL: none).  A heap string (free(); *len
 * its length), or NULL when it cannot be made.
 */
char	*compose_render(struct db *db, struct arena *a,
	    const struct tpl_outline *o, struct html_doc *doc,
	    struct json_object *content, const struct compose_tokens *tk,
	    size_t *len);

/*
 * The values lead id has for lead tokens, by the fields of the catalogue
 * s (borrowed; it must outlive *t), into *t (values in the arena a); id
 * 0 gives no lead (tokens take their defaults).  0, -REPO_ERR_NOT_FOUND
 * when there is no such lead, or another negative repo_err.
 */
int	compose_lead(struct db *db, struct arena *a,
	    const struct lead_schema *s, int64_t id, struct email_lead *t);

/*
 * Header h of e's version as a message takes it: the Text value, or NULL
 * when it is unset or set to dynamic content.
 */
const char	*compose_header(const struct repo_email *e,
		    enum repo_email_hdr h);

/*
 * The headers a message of e's version takes (compose_header): m's from,
 * from_name, reply_to and subject, the tokens of tk filled in the subject
 * and the From name.  Filled strings are heap strings in own[0] and
 * own[1] (free() both; NULL when nothing was filled).
 */
void	compose_headers(const struct repo_email *e,
	    const struct compose_tokens *tk, struct mail_message *m,
	    char *own[2]);

#endif
