/*
 * Places of assets (docs/assets.md): a folder or a program, named by
 * {id, type} because folder ids and program ids are separate namespaces.
 * The `folder` parameter of the asset operations is parsed here,
 * leniently, the way real clients send it; and here is the rule of which
 * asset may live in which kind of folder (711 when it may not).  Pure
 * code: no SQL, no HTTP.
 */
#ifndef MAUTO_MODEL_FOLDER_H
#define MAUTO_MODEL_FOLDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The two kinds of place, as the API names them ("Folder", "Program"). */
enum folder_type {
	FOLDER_T_FOLDER,
	FOLDER_T_PROGRAM,
};

struct folder_ref {
	int64_t			 id;
	enum folder_type	 type;
};

/*
 * What a folder may hold (the folder table's kind column): the words are
 * "marketing", "email", "emailTemplate", "landingPageTemplate",
 * "smartList", "staticList" (the Lead Database tree).
 */
enum folder_kind {
	FK_MARKETING,		/* programs and marketing folders */
	FK_EMAIL,
	FK_EMAIL_TEMPLATE,
	FK_LP_TEMPLATE,
	FK_SMART_LIST,
	FK_STATIC_LIST,
	FK__MAX
};

/* What is being put somewhere. */
enum asset_kind {
	AK_FOLDER,		/* a folder of the same kind as its parent */
	AK_PROGRAM,
	AK_EMAIL,
	AK_EMAIL_TEMPLATE,
	AK_LP_TEMPLATE,
	AK_SMART_LIST,
	AK_SMART_CAMPAIGN,
	AK_STATIC_LIST,
	AK__MAX
};

/* The longest folder parameter looked at; a longer one is 1001. */
#define FOLDER_PARAM_MAX_BYTES	256

/*
 * Parses the folder parameter s: JSON {"id":12,"type":"Folder"}, the
 * members in either order, with single or double quotes or none around
 * the type word (Python's repr: {'id': 12, 'type': Folder}), '=' for
 * ':', any letter case in the type word and the member names, white
 * space anywhere between tokens, the id as a number or a quoted number.
 * Nothing else may follow the closing brace.  Returns 0 and fills *out,
 * or -1 (not a place reference: the caller answers 1001 naming
 * FolderVariantType).
 */
int	folder_ref_parse(const char *s, struct folder_ref *out);

/*
 * The folderId + folderType pair of the browse operations: id a positive
 * decimal, type "Folder" or "Program" in any letter case (NULL type
 * means Folder).  Returns 0 and fills *out, or -1.
 */
int	folder_ref_pair(const char *id, const char *type,
	    struct folder_ref *out);

/* "Folder" or "Program". */
const char	*folder_type_name(enum folder_type t);

/* The kind's word, and the kind of a word (-1 when unknown). */
const char	*folder_kind_name(enum folder_kind k);
int		 folder_kind_parse(const char *word);

/*
 * Whether an asset of kind ak may be put in a place: a folder of kind fk
 * (is_program false), or a program (is_program true, fk ignored).
 * Programs hold emails, smart lists, smart campaigns and static lists; a
 * marketing
 * folder holds programs, smart campaigns and marketing folders; every
 * other folder holds folders of its own kind and its own asset kind.
 */
bool	folder_may_hold(enum folder_kind fk, bool is_program,
	    enum asset_kind ak);

#endif
