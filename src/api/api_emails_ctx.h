/*
 * What the Emails v1 handler files (api_emails.c, api_emails_content.c,
 * api_emails_modules.c, api_emails_full.c) share: the path's email, the
 * answer of a failed change, the email context (an email with its
 * template parsed and its content document), and the edit of a draft.
 * The content document is read and written only through model/email.h.
 */
#ifndef MAUTO_API_API_EMAILS_CTX_H
#define MAUTO_API_API_EMAILS_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/asset.h"
#include "model/template.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"

/* The longest header value (subject, from, reply-to) taken, in bytes. */
#define EMAIL_HDR_MAX_BYTES	4096
/* The longest preheader, in characters (docs/behaviour.md §8.1). */
#define EMAIL_PREHEADER_CHARS	1024

struct buf;
struct call;
struct html_doc;
struct json_object;
struct parsed_tpl;
struct resp;

/* The path's email id. */
int32_t	api_emails_ctx_id(const struct call *c);

/*
 * A repository error e of a change of email id as the API answers it
 * (702 "<id> Email not found", 709 with msg); the negative api_err.
 */
int	api_emails_ctx_err(struct call *c, struct resp *r, int32_t id, int e,
	    const char *msg);

/*
 * An email with the template it is made from, parsed: the version read,
 * the template's HTML as a document and its outline, and the version's
 * content document.  api_emails_ctx_clear frees what a read filled.
 */
struct email_ctx {
	struct repo_email	 em;
	struct repo_etpl	 tpl;
	bool			 has_tpl;
	bool			 kept;	/* o and doc are the worker's (read only) */
	struct parsed_tpl	*slot;	/* the kept parse, or NULL */
	struct tpl_outline	 o;
	struct html_doc		*doc;
	struct json_object	*content;
};

/* Frees what a read filled in x (x may be cleared already). */
void	api_emails_ctx_clear(struct email_ctx *x);

/*
 * Reads email id (the version want picks) and its template, parsed,
 * into *x.  A query that finds nothing answers the warning (1 is
 * returned: nothing more to do); a change (query false) 702.  0 when *x
 * is filled; the caller clears *x whatever the result.  The caller may
 * change the template's document.
 */
int	api_emails_ctx_load(struct call *c, struct resp *r, int32_t id,
	    enum asset_status want, bool query, struct email_ctx *x);
/*
 * The email of a query by the path's id and the status parameter, into
 * *x (read only): 0, 1 after the "No assets found" warning, or the error
 * (*x is cleared but for 0).
 */
int	api_emails_ctx_query(struct call *c, struct resp *r,
	    struct email_ctx *x);

/*
 * The worker's kept JSON text of section i's Text value for x's template
 * (empty until written), or NULL when x's template parse is not kept.
 */
struct buf *api_emails_ctx_kept_text(const struct email_ctx *x, size_t i);

/* What an edit sets; applied to the draft inside the transaction. */
struct email_edit {
	struct call		*c;
	struct repo_email_header hdr[EMAIL_HDR__MAX];	/* type NULL: kept */
	int			 open_tracking_disabled;	/* -1: kept */
	const char		*section;	/* the section to set, or NULL */
	struct json_object	*section_value;
	const char		*var_name;	/* the variable to set, or NULL */
	const char		*var_module;
	const char		*var_value;
	/* A change of the module instances (NULL: none), on the outline o. */
	int			(*modules)(struct email_edit *ed,
				    struct json_object *doc,
				    struct json_object **mods, char *msg);
	const struct tpl_outline *o;
	const char		*mod_id;	/* the path's module */
	const char		*mod_name;	/* name: the new id, or NULL */
	const char		*mod_template;	/* add: the template's module */
	int64_t			 mod_index;
	struct json_object	*positions;	/* rearrange */
	int			 code;	/* a refusal's api_err; 0: 709 */
	const char		*full_html;	/* the whole HTML, or NULL */
	bool			 set_text;	/* text: the text part */
	const char		*text;		/* NULL: none (from the HTML) */
	bool			 reset;		/* the content becomes the
						   template's ("") */
};

/*
 * repo_email_edit_fn: applies the edit ed (arg) to the draft d, headers
 * first; with ed->reset the content becomes the template's, else the
 * section, variable, HTML, text and module changes ed names are made in
 * its content document.  Both email APIs' edits go through it.
 */
int	api_emails_ctx_apply(void *arg, struct repo_email_draft *d,
	    char *msg);

/*
 * Runs the edit ed on email id's draft (made from the approved version
 * when there is none), under the email's row lock; answers [{"id": id}]
 * when answer_id.  0 or the negative api_err (a refusal of ed->modules
 * with ed->code, else 709 or 702 with the message in r).
 */
int	api_emails_ctx_edit(struct call *c, struct resp *r, int32_t id,
	    struct email_edit *ed, bool answer_id);

#endif
