// The browser page's files, embedded at compile time with C23 #embed: the
// server needs no file at run time and the build needs no generation step
// (clang records the embedded files as dependencies, so editing one rebuilds).
#include "CWebPage.h"

static const unsigned char index_html[] = {
#embed "Page/index.html"
};
static const unsigned char app_js[] = {
#embed "Page/app.js"
};
static const unsigned char style_css[] = {
#embed "Page/style.css"
};
static const unsigned char icon_svg[] = {
#embed "Page/icon.svg"
};

static const CWebPageFile files[] = {
    {"index.html", index_html, sizeof index_html},
    {"app.js", app_js, sizeof app_js},
    {"style.css", style_css, sizeof style_css},
    {"icon.svg", icon_svg, sizeof icon_svg},
};

size_t cwebpage_count(void) { return sizeof files / sizeof files[0]; }

CWebPageFile cwebpage_file(size_t index) {
    if (index >= cwebpage_count()) {
        CWebPageFile none = {"", 0, 0};
        return none;
    }
    return files[index];
}
