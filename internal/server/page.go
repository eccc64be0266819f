package server

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed static
var staticFS embed.FS

// pageHandler serves the embedded page: index.html at / and its scripts
// and styles beside it, for GET and HEAD only.
func pageHandler() http.Handler {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		// Cannot happen: the directory is embedded at build time.
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "page missing from the binary: "+err.Error(), http.StatusInternalServerError)
		})
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		files.ServeHTTP(w, r)
	})
}
