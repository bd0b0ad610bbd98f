/*
 * libFuzzer target for the filter logic of smart lists
 * (model/smartlist.c).  The first input byte is the number of rules, the
 * rest the expression.  Invariants: parsing is deterministic; a refusal
 * leaves an empty form and a message; an accepted expression's canonical
 * form parses to itself, and renumbering it with the identity gives it
 * back, with every rule deleted the empty string.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/smartlist.h"

#define INPUT_MAX	(SL_LOGIC_MAX_BYTES + 64)

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char in[INPUT_MAX + 1];
	static char a[SL_LOGIC_MAX_BYTES + 1], b[SL_LOGIC_MAX_BYTES + 1];
	static char c[SL_LOGIC_MAX_BYTES + 1];
	static int same[256], gone[256];
	char ma[SL_MSG_BYTES], mb[SL_MSG_BYTES];
	int nrules, ra, rb, i;

	if (size < 1 || size > INPUT_MAX)
		return 0;
	nrules = data[0];
	memcpy(in, data + 1, size - 1);
	in[size - 1] = '\0';
	ra = sl_logic_parse(in, nrules, a, ma);
	rb = sl_logic_parse(in, nrules, b, mb);
	if (ra != rb || strcmp(a, b) != 0 || (ra != 0 && ra != -1))
		__builtin_trap();
	if (ra != 0) {
		if (a[0] != '\0' || ma[0] == '\0' || strcmp(ma, mb) != 0)
			__builtin_trap();
		return 0;
	}
	if (sl_logic_parse(a, nrules, b, mb) != 0 || strcmp(a, b) != 0)
		__builtin_trap();
	for (i = 0; i < 256; i++) {
		same[i] = i + 1;
		gone[i] = 0;
	}
	if (sl_logic_renumber(a, same, nrules, c) != 0 || strcmp(a, c) != 0)
		__builtin_trap();
	if (sl_logic_renumber(a, gone, nrules, c) != 0 || c[0] != '\0')
		__builtin_trap();
	return 0;
}
