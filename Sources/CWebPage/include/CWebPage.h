#ifndef CWEBPAGE_H
#define CWEBPAGE_H
#include <stddef.h>

/// One file of the browser page, built into the binary (no file is read at run time).
typedef struct {
    /// The file's name under Page/ ("index.html").
    const char *name;
    const unsigned char *bytes;
    size_t count;
} CWebPageFile;

/// How many page files there are.
size_t cwebpage_count(void);
/// The page file at `index` (0 ..< cwebpage_count()).
CWebPageFile cwebpage_file(size_t index);

#endif
