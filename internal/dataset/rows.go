package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// maxFileSize bounds how much of a dataset file (after decompression) is
// read, so that a wrong path cannot exhaust memory. The largest known
// benchmark file is under 3 MB.
const maxFileSize = 512 << 20

// LineError is an error in one record of a data file. Line is 1-based; 0
// means the error concerns the file as a whole.
type LineError struct {
	Path string
	Line int
	Err  error
}

// Error formats the error as "path:line: message".
func (e *LineError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
}

// Unwrap returns the underlying error.
func (e *LineError) Unwrap() error { return e.Err }

// Is reports that a *LineError matches ErrBadFile.
func (e *LineError) Is(target error) bool { return target == ErrBadFile }

// record is one JSON object of a data file with the line it starts on.
type record struct {
	line   int
	fields map[string]json.RawMessage
}

// readFile returns the contents of path, decompressed when it is gzip data
// (detected by its magic bytes, whatever the file's name).
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	head := make([]byte, 2)
	n, _ := io.ReadFull(f, head)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if n == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, &LineError{Path: path, Err: fmt.Errorf("invalid gzip data: %w", err)}
		}
		defer zr.Close()
		r = zr
	}
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, &LineError{Path: path, Err: fmt.Errorf("read: %w", err)}
	}
	if len(data) > maxFileSize {
		return nil, &LineError{Path: path, Err: fmt.Errorf("larger than %d MiB; is this a dataset file?", maxFileSize>>20)}
	}
	return data, nil
}

// readRecords parses data as a JSON array of objects (when its first
// non-blank byte is '[') or as JSON Lines, one object per non-blank line.
func readRecords(ctx context.Context, path string, data []byte) ([]record, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a UTF-8 byte order mark
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, &LineError{Path: path, Err: errors.New("empty file; delete it and fetch it again")}
	}
	if trimmed[0] == '[' {
		return readArray(ctx, path, data)
	}
	return readLines(ctx, path, data)
}

// readLines parses JSON Lines.
func readLines(ctx context.Context, path string, data []byte) ([]record, error) {
	var recs []record
	for line := 1; len(data) > 0; line++ {
		if line%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var text []byte
		i := bytes.IndexByte(data, '\n')
		last := i < 0
		if last {
			text, data = data, nil
		} else {
			text, data = data[:i], data[i+1:]
		}
		text = bytes.TrimSpace(text)
		if len(text) == 0 {
			continue
		}
		var fields map[string]json.RawMessage
		err := json.Unmarshal(text, &fields)
		if fixed, ok := PythonConstants(text); err != nil && ok {
			err = json.Unmarshal(fixed, &fields)
		}
		if err != nil {
			msg := fmt.Errorf("invalid JSON: %w", err)
			if last && endsEarly(text) {
				msg = fmt.Errorf("invalid JSON (the file looks truncated; fetch it again): %w", err)
			}
			return nil, &LineError{Path: path, Line: line, Err: msg}
		}
		if fields == nil {
			return nil, &LineError{Path: path, Line: line, Err: errors.New("want a JSON object, got null")}
		}
		recs = append(recs, record{line: line, fields: fields})
	}
	return recs, nil
}

// endsEarly reports whether text is the beginning of a JSON value cut off
// before its end.
func endsEarly(text []byte) bool {
	var v any
	err := json.NewDecoder(bytes.NewReader(text)).Decode(&v)
	return errors.Is(err, io.ErrUnexpectedEOF)
}

// readArray parses a JSON array of objects, noting the line each starts on.
func readArray(ctx context.Context, path string, data []byte) ([]record, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	lineAt := func(off int64) int {
		if off > int64(len(data)) {
			off = int64(len(data))
		}
		return bytes.Count(data[:off], []byte("\n")) + 1
	}
	fail := func(err error) error {
		off := dec.InputOffset()
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			off = syn.Offset
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			err = fmt.Errorf("invalid JSON (the file looks truncated; fetch it again): %w", err)
		} else {
			err = fmt.Errorf("invalid JSON: %w", err)
		}
		return &LineError{Path: path, Line: lineAt(off), Err: err}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail(err)
	}
	var recs []record
	for dec.More() {
		if len(recs)%256 == 255 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		start := skipSeparators(data, dec.InputOffset())
		var fields map[string]json.RawMessage
		if err := dec.Decode(&fields); err != nil {
			var typ *json.UnmarshalTypeError
			switch {
			case errors.As(err, &typ):
				return nil, &LineError{Path: path, Line: lineAt(start), Err: fmt.Errorf("want a JSON object, got %s", typ.Value)}
			case errors.Is(err, io.ErrUnexpectedEOF):
				return nil, &LineError{Path: path, Line: lineAt(start), Err: fmt.Errorf("invalid JSON (the file looks truncated; fetch it again): %w", err)}
			}
			return nil, fail(err)
		}
		if fields == nil {
			return nil, &LineError{Path: path, Line: lineAt(start), Err: errors.New("want a JSON object, got null")}
		}
		recs = append(recs, record{line: lineAt(start), fields: fields})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail(err)
	}
	if dec.More() {
		return nil, &LineError{Path: path, Line: lineAt(dec.InputOffset()), Err: errors.New("unexpected data after the JSON array")}
	}
	return recs, nil
}

// skipSeparators returns the offset of the first byte at or after off that is
// not white space or a comma: where the next array element starts.
func skipSeparators(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
		default:
			return off
		}
	}
	return off
}

// sampleField returns the field that marks r as a row of a samples file
// rather than a problem ("completion" of human-eval samples, "samples" of
// CodeT's), or "".
func (r record) sampleField() string {
	for _, f := range []string{"completion", "samples"} {
		if _, ok := r.fields[f]; ok {
			return f
		}
	}
	return ""
}

// isSample reports whether r looks like a row of a samples file.
func (r record) isSample() bool { return r.sampleField() != "" }

// str returns the string field name of r, or an error that names the field.
func (r record) str(name string) (string, error) {
	raw, ok := r.fields[name]
	if !ok {
		return "", fmt.Errorf("missing field %q", name)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("field %q: want a string, got %s", name, describeJSON(raw))
	}
	return s, nil
}

// optStr returns the string field name of r, or "" when it is absent or null.
func (r record) optStr(name string) (string, error) {
	raw, ok := r.fields[name]
	if !ok || string(raw) == "null" {
		return "", nil
	}
	return r.str(name)
}

// strs returns the string-list field name of r; absent or null is an empty
// list unless required.
func (r record) strs(name string, required bool) ([]string, error) {
	raw, ok := r.fields[name]
	if !ok || string(raw) == "null" {
		if required {
			return nil, fmt.Errorf("missing field %q", name)
		}
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("field %q: want a list of strings, got %s", name, describeJSON(raw))
	}
	return list, nil
}

// id returns the task_id field, a string or an integer.
func (r record) id() (string, error) {
	raw, ok := r.fields["task_id"]
	if !ok {
		return "", errors.New(`missing field "task_id"`)
	}
	id, err := DecodeTaskID(raw)
	if err != nil {
		return "", fmt.Errorf("%w, got %s", err, describeJSON(raw))
	}
	return id, nil
}

// DecodeTaskID decodes a task_id given as a JSON string or integer (MBPP and
// the CQE files use integers).
func DecodeTaskID(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", errors.New(`missing field "task_id"`)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == "" {
			return "", errors.New(`field "task_id" is empty`)
		}
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		if _, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
			return n.String(), nil
		}
	}
	return "", errors.New(`field "task_id": want a string or an integer`)
}

// describeJSON names the kind of a JSON value for error messages.
func describeJSON(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '"':
		return "a string"
	case '[':
		return "a list"
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
