/*
 * Libraries loaded when a feature first needs them (dlopen), not by every
 * start of the program: each one linked is mapped and its symbols
 * resolved at every command's start, and every fork (GPGME starts gpg
 * with two) copies its mappings.  The library is kept for the process.
 */
#include <dlfcn.h>

#include "util.h"

static int load(void **lib, int mode, const char *soname, const char *what,
		const char *which, const char *const *names,
		void **const *slots, size_t n, struct err *err)
{
	const char *missing = NULL;

	if (*lib)
		return 0;
	if (!(*lib = dlopen(soname, mode)))
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

int dl_load(void **lib, const char *soname, const char *what, const char *which,
	    const char *const *names, void **const *slots, size_t n,
	    struct err *err)
{
	return load(lib, RTLD_NOW | RTLD_LOCAL, soname, what, which, names,
		    slots, n, err);
}

int dl_load_deep(void **lib, const char *soname, const char *what,
		 const char *which, const char *const *names,
		 void **const *slots, size_t n, struct err *err)
{
#if defined(__SANITIZE_ADDRESS__)
	int deep = 0;
#else
	int deep = RTLD_DEEPBIND;
#endif
	return load(lib, RTLD_NOW | RTLD_LOCAL | deep, soname, what, which,
		    names, slots, n, err);
}
