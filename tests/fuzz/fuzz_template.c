/*
 * libFuzzer target for the email template parser (model/template.c).
 * The input is the template: parsed into its outline, every declaration
 * read and its indexes followed, each variable's default checked against
 * its own rule, and the input checked as a snippet too.  Nothing may
 * crash or leak, and an accepted template must hold a section.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/template.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tpl_outline o;
	char msg[TPL_MSG_BYTES];
	size_t i, k, n = 0;

	(void)tpl_check_snippet((const char *)data, size, msg);
	if (tpl_parse((const char *)data, size, &o, msg) != 0) {
		if (msg[0] == '\0' || o.nsections != 0)
			abort();
		return 0;
	}
	if (o.nsections == 0)
		abort();
	for (i = 0; i < o.nsections; i++) {
		n += strlen(o.sections[i].id) + strlen(o.sections[i].name);
		if (o.sections[i].module >= (long)o.nmodules)
			abort();
		(void)tpl_section_kind_name(o.sections[i].kind);
	}
	for (i = 0; i < o.nmodules; i++)
		for (k = 0; k < o.modules[i].nvars; k++)
			if (o.modules[i].vars[k] >= o.nvariables ||
			    !o.variables[o.modules[i].vars[k]].module_scope)
				abort();
	for (i = 0; i < o.nvariables; i++) {
		(void)tpl_var_type_name(o.variables[i].type);
		/* A default that was accepted is a value the variable takes. */
		if (o.variables[i].type != TPL_VAR_STRING &&
		    o.variables[i].value[0] != '\0' &&
		    !tpl_var_value_ok(&o.variables[i], o.variables[i].value))
			abort();
	}
	if (o.nmodules > 0 && o.container_id == NULL)
		abort();
	tpl_outline_clear(&o);
	return n == SIZE_MAX;
}
