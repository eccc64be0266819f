// Package clip bounds text that untrusted code or a remote party chose
// (exception names, values, error messages) before ticoder stores or shows
// it.
//
// clip must not know what the text means or where it goes.
package clip
