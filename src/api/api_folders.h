/*
 * What the folder handlers share (api_folders.c, api_tokens.c): the
 * folder tree of a request, the folder object of the replies, and the
 * Folder/Program type word.
 */
#ifndef MAUTO_API_API_FOLDERS_H
#define MAUTO_API_API_FOLDERS_H

#include "model/folder.h"
#include "model/foldertree.h"

struct buf;
struct call;

/* Reads and indexes the folder tree into *t (request arena); api_err. */
int	api_folders_tree(struct call *c, struct ftree *t);

/* The folder object of node f of t, appended to b as JSON text. */
void	api_folders_text(struct buf *b, struct call *c, const struct ftree *t,
	    const struct ftree_node *f);

/*
 * "Folder" or "Program" in any letter case (NULL: Folder) into *out;
 * -1 for any other word.
 */
int	api_folders_type(const char *s, enum folder_type *out);

#endif
