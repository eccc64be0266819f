// Package browsertest starts Debian's headless chromium for tests that
// drive ticoder's web page (chromedp), and gives them small helpers.
//
// Only tests (and other test helpers) import it; ticoder's own code must
// not.
package browsertest
