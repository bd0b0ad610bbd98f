/*
 * Landing page templates (docs/assets.md): their two types and what
 * approving one checks.  Pure code over model/html.h.
 */
#ifndef MAUTO_MODEL_LPTEMPLATE_H
#define MAUTO_MODEL_LPTEMPLATE_H

#include <stddef.h>

enum lpt_type {
	LPT_FREE_FORM,		/* "freeForm" */
	LPT_GUIDED,		/* "guided" */
};

/* "freeForm" or "guided"; the type of a word in any letter case, with
 * "freeform" too (the documentation's spelling), or -1. */
const char	*lpt_type_name(enum lpt_type t);
int		 lpt_type_parse(const char *word);

/* The longest message lpt_check writes, with its terminator. */
#define LPT_MSG_BYTES		256

/*
 * Checks the content html (len bytes) of a template of type t before it
 * is approved.  Returns 0, or -1 with the reason in msg (LPT_MSG_BYTES):
 * what the service answers with 709.
 */
int	lpt_check(enum lpt_type t, const char *html, size_t len, char *msg);

#endif
