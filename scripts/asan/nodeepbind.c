/* Preloaded into the engine for scripts/asan.sh: dlopen without RTLD_DEEPBIND.
 *
 * Godot opens GDExtension libraries with RTLD_DEEPBIND (unless it was itself built with
 * sanitizers), which AddressSanitizer's runtime refuses: a library bound to its own
 * symbols first would call the C library's malloc and free past the runtime's. The codec's
 * library exports one symbol and imports none of the engine's, so binding it the ordinary
 * way changes nothing else. */
#define _GNU_SOURCE
#include <dlfcn.h>

void *dlopen(const char *file, int flags) {
  static void *(*next)(const char *, int);
  if (!next) {
    next = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
  }
  return next(file, flags & ~RTLD_DEEPBIND);
}
