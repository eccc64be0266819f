package project

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// pyprojectStrings returns the list of strings `key = [...]` (or a single
// string) of the table [table] in ROOT/pyproject.toml; none if the file,
// the table or the key is missing. It reads only what ticoder needs of
// TOML: a table header line, and a key whose value is a string or an array
// of strings, which may span lines.
func pyprojectStrings(root, table, key string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(root, "pyproject.toml"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, badProject("read %s: %v", filepath.Join(root, "pyproject.toml"), err)
	}
	vals, ok := tomlStrings(string(data), table, key)
	if !ok {
		return nil, badProject("%s: [%s] %s: want a string or a list of strings", filepath.Join(root, "pyproject.toml"), table, key)
	}
	return vals, nil
}

// tomlStrings finds key in [table] of text; ok is false when its value is
// not a string or an array of strings.
func tomlStrings(text, table, key string) ([]string, bool) {
	in := false
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") {
			h := strings.TrimSpace(stripComment(l))
			in = h == "["+table+"]"
			continue
		}
		if !in {
			continue
		}
		k, v, found := strings.Cut(l, "=")
		if !found || strings.Trim(strings.TrimSpace(k), `"'`) != key {
			continue
		}
		rest := strings.TrimSpace(v) + "\n" + strings.Join(lines[i+1:], "\n")
		return parseStrings(rest)
	}
	return nil, true
}

// parseStrings reads a string or an array of strings at the start of s.
func parseStrings(s string) ([]string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, false
	}
	if s[0] != '[' {
		str, _, ok := readString(s)
		return []string{str}, ok
	}
	var out []string
	s = s[1:]
	for {
		s = strings.TrimLeft(stripLeadingComments(s), " \t\r\n,")
		s = stripLeadingComments(s)
		if s == "" {
			return nil, false
		}
		if s[0] == ']' {
			return out, true
		}
		str, rest, ok := readString(s)
		if !ok {
			return nil, false
		}
		out = append(out, str)
		s = rest
	}
}

// stripLeadingComments drops white space and # comments at the start of s.
func stripLeadingComments(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n,")
		if !strings.HasPrefix(s, "#") {
			return s
		}
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		} else {
			return ""
		}
	}
}

// readString reads a basic ("…", with \" and \\ escapes) or literal ('…')
// string at the start of s.
func readString(s string) (string, string, bool) {
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		return "", s, false
	}
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), s[i+1:], true
		case c == '\n':
			return "", s, false
		case c == '\\' && q == '"' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		default:
			b.WriteByte(c)
		}
	}
	return "", s, false
}

// stripComment drops a # comment after a table header.
func stripComment(l string) string {
	if i := strings.Index(l, "#"); i >= 0 {
		return l[:i]
	}
	return l
}

// PytestPaths returns [tool.pytest.ini_options] testpaths of
// ROOT/pyproject.toml (none when it is not set).
func PytestPaths(root string) ([]string, error) {
	return pyprojectStrings(root, "tool.pytest.ini_options", "testpaths")
}
