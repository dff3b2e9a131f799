// glibc's <malloc.h> (mallopt and its M_ parameters), which Swift's Glibc module leaves out.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
