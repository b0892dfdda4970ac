// The browser page's files, embedded at compile time with C23 #embed: the
// server needs no file at run time and the build needs no generation step
// (clang records the embedded files as dependencies, so editing one rebuilds).
// The script is ES modules (app.js imports the others): each one is a file
// here, and a new module needs its line in both lists below.
#include "CWebPage.h"

static const unsigned char index_html[] = {
#embed "Page/index.html"
};
static const unsigned char app_js[] = {
#embed "Page/app.js"
};
static const unsigned char dom_js[] = {
#embed "Page/dom.js"
};
static const unsigned char wire_js[] = {
#embed "Page/wire.js"
};
static const unsigned char state_js[] = {
#embed "Page/state.js"
};
static const unsigned char geometry_js[] = {
#embed "Page/geometry.js"
};
static const unsigned char parts_js[] = {
#embed "Page/parts.js"
};
static const unsigned char cutter_js[] = {
#embed "Page/cutter.js"
};
static const unsigned char lens_js[] = {
#embed "Page/lens.js"
};
static const unsigned char tools_js[] = {
#embed "Page/tools.js"
};
static const unsigned char edgescroll_js[] = {
#embed "Page/edgescroll.js"
};
static const unsigned char link_js[] = {
#embed "Page/link.js"
};
static const unsigned char session_js[] = {
#embed "Page/session.js"
};
static const unsigned char pictures_js[] = {
#embed "Page/pictures.js"
};
static const unsigned char view_js[] = {
#embed "Page/view.js"
};
static const unsigned char draw_js[] = {
#embed "Page/draw.js"
};
static const unsigned char hand_js[] = {
#embed "Page/hand.js"
};
static const unsigned char input_js[] = {
#embed "Page/input.js"
};
static const unsigned char hud_js[] = {
#embed "Page/hud.js"
};
static const unsigned char chat_js[] = {
#embed "Page/chat.js"
};
static const unsigned char lobby_js[] = {
#embed "Page/lobby.js"
};
static const unsigned char notices_js[] = {
#embed "Page/notices.js"
};
static const unsigned char replays_js[] = {
#embed "Page/replays.js"
};
static const unsigned char solve_js[] = {
#embed "Page/solve.js"
};
static const unsigned char replayview_js[] = {
#embed "Page/replayview.js"
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
    {"dom.js", dom_js, sizeof dom_js},
    {"wire.js", wire_js, sizeof wire_js},
    {"state.js", state_js, sizeof state_js},
    {"geometry.js", geometry_js, sizeof geometry_js},
    {"parts.js", parts_js, sizeof parts_js},
    {"cutter.js", cutter_js, sizeof cutter_js},
    {"lens.js", lens_js, sizeof lens_js},
    {"tools.js", tools_js, sizeof tools_js},
    {"edgescroll.js", edgescroll_js, sizeof edgescroll_js},
    {"link.js", link_js, sizeof link_js},
    {"session.js", session_js, sizeof session_js},
    {"pictures.js", pictures_js, sizeof pictures_js},
    {"view.js", view_js, sizeof view_js},
    {"draw.js", draw_js, sizeof draw_js},
    {"hand.js", hand_js, sizeof hand_js},
    {"input.js", input_js, sizeof input_js},
    {"hud.js", hud_js, sizeof hud_js},
    {"chat.js", chat_js, sizeof chat_js},
    {"lobby.js", lobby_js, sizeof lobby_js},
    {"notices.js", notices_js, sizeof notices_js},
    {"replays.js", replays_js, sizeof replays_js},
    {"solve.js", solve_js, sizeof solve_js},
    {"replayview.js", replayview_js, sizeof replayview_js},
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
