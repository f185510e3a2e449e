/*
 * Libraries loaded when a feature first needs them (dlopen), not by every
 * start of the program: each one linked is mapped and its symbols
 * resolved at every command's start, and every fork (GPGME starts gpg
 * with two) copies its mappings.  The library is kept for the process.
 */
#include <dlfcn.h>

#include "util.h"

int dl_load(void **lib, const char *soname, const char *what, const char *which,
	    const char *const *names, void **const *slots, size_t n,
	    struct err *err)
{
	const char *missing = NULL;

	if (*lib)
		return 0;
	if (!(*lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL)))
		return err_setc(err, ERR_IO, "%s needs %s: %s", what, soname,
				dlerror());
	for (size_t i = 0; i < n && !missing; i++)
		if (!(*slots[i] = dlsym(*lib, names[i])))
			missing = names[i];
	if (missing) {
		dlclose(*lib);
		*lib = NULL;
		return err_setc(
			err, ERR_IO,
			"%s has no %s: not the %s this program was built for",
			soname, missing, which);
	}
	return 0;
}
