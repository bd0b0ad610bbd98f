/*
 * What Emails v1 (api_emails.c) shares with Emails v2 (api_emails2.c):
 * the two are views of one email store, so v2 approves with v1's checks
 * and shows the HTML v1's Get Email Full Content renders.
 */
#ifndef MAUTO_API_API_EMAILS_H
#define MAUTO_API_API_EMAILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/asset.h"

struct call;
struct repo_email;
struct resp;

/*
 * What approving checks on draft: 0, or -1 with the 709 message in msg
 * (REPO_EMAIL_MSG_BYTES).  A repo_email_check_fn.
 */
int	api_emails_approval_check(const struct repo_email *draft, char *msg);

/*
 * The HTML of email id's version want as Get Email Full Content renders
 * it (no lead), into *html (*len bytes), and its text version into
 * *text: the text the version was given (Emails v2's data.text.body;
 * *own_text true), else the HTML's text.  Both heap strings the caller
 * frees.  Returns 0
 * or a negative api_err (702 for an email or version that is not
 * there, its message in r).
 */
int	api_emails_render_version(struct call *c, struct resp *r, int32_t id,
	    enum asset_status want, char **html, size_t *len, char **text,
	    bool *own_text);

#endif
