// Package atomicfile writes files so that an error or a crash never leaves
// a partial file behind: through a temporary file in the same directory
// that is synced and renamed into place.
//
// atomicfile must not know what the files hold.
package atomicfile
