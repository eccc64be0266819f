package dataset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// ErrChecksum means a file's SHA-256 differs from the pinned one.
var ErrChecksum = errors.New("SHA-256 mismatch")

// maxDownload bounds a download; the largest known file is under 4 MB.
const maxDownload = 64 << 20

// Fetcher downloads known datasets into a data directory. The zero value
// downloads from each dataset's canonical URL with http.DefaultClient. A
// Fetcher is safe for concurrent use if its Client is.
type Fetcher struct {
	// Client performs the requests; nil means http.DefaultClient.
	Client *http.Client
	// BaseURL, if set, replaces each dataset's canonical URL with
	// BaseURL + "/" + the dataset's File (e.g. a mirror, or a test server
	// serving a data directory).
	BaseURL string
}

// FetchResult says what Fetch did for one dataset.
type FetchResult struct {
	Spec Spec
	// Path is the file in the data directory.
	Path string
	// URL is where it was downloaded from (empty if it was already present).
	URL string
	// Skipped reports that a file with the pinned checksum was already there.
	Skipped bool
	// Bytes is the size of the file.
	Bytes int64
}

// URL returns the address Fetch downloads spec from.
func (f *Fetcher) URL(spec Spec) string {
	if f != nil && f.BaseURL != "" {
		return strings.TrimRight(f.BaseURL, "/") + "/" + spec.File
	}
	return spec.URL
}

// Fetch downloads the known dataset name into dataDir unless a file with the
// pinned checksum is already there. The file is written to a temporary file
// beside its destination, checked against the pinned SHA-256, and renamed
// into place only if it matches; on a mismatch nothing is left behind and
// the error wraps ErrChecksum.
func (f *Fetcher) Fetch(ctx context.Context, dataDir, name string) (FetchResult, error) {
	spec, ok := LookupDownload(name)
	if !ok {
		return FetchResult{}, fmt.Errorf("fetch %q: %w: want one of %s", name, ErrUnknown, strings.Join(DownloadNames(), ", "))
	}
	dest := spec.Path(dataDir)
	res := FetchResult{Spec: spec, Path: dest}
	if sum, size, err := fileSHA256(dest); err == nil && sum == spec.SHA256 {
		res.Skipped, res.Bytes = true, size
		return res, nil
	}
	res.URL = f.URL(spec)
	size, err := f.download(ctx, res.URL, dest, spec.SHA256)
	if err != nil {
		return FetchResult{}, fmt.Errorf("fetch %s from %s: %w", name, res.URL, err)
	}
	res.Bytes = size
	return res, nil
}

// download writes url's body to dest atomically if its SHA-256 is want.
func (f *Fetcher) download(ctx context.Context, url, dest, want string) (size int64, err error) {
	client := http.DefaultClient
	if f != nil && f.Client != nil {
		client = f.Client
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%w (check the network, or copy the file into the data directory by hand)", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("server answered %s", resp.Status)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".*.part")
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	size, err = io.Copy(io.MultiWriter(tmp, h), io.LimitReader(resp.Body, maxDownload+1))
	if err != nil {
		return 0, fmt.Errorf("download: %w", err)
	}
	if size > maxDownload {
		return 0, fmt.Errorf("download larger than %d MiB; is the URL right?", maxDownload>>20)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return 0, fmt.Errorf("%w: got %s, want %s; the download was corrupted or the upstream file changed, so it was not saved", ErrChecksum, got, want)
	}
	if err := tmp.Sync(); err != nil {
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return 0, err
	}
	return size, nil
}

// fileSHA256 returns the hex SHA-256 and size of the file at path.
func fileSHA256(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// FileStatus describes a known dataset's file in a data directory.
type FileStatus struct {
	Spec Spec `json:"-"`
	// Name is the dataset's name.
	Name string `json:"name"`
	// Path is where the file is expected.
	Path string `json:"path"`
	// Present reports whether the file exists.
	Present bool `json:"present"`
	// SHA256 is the file's checksum ("" if absent).
	SHA256 string `json:"sha256,omitempty"`
	// ChecksumOK reports whether SHA256 equals the pinned checksum.
	ChecksumOK bool `json:"checksum_ok"`
	// Rows is the number of problems loaded from it (0 if it did not load).
	Rows int `json:"rows"`
	// Err says what is wrong, if anything: missing, unreadable, checksum
	// mismatch, or a load error.
	Err string `json:"error,omitempty"`
}

// OK reports whether the file is present, matches its checksum and loads.
func (s FileStatus) OK() bool { return s.Present && s.ChecksumOK && s.Err == "" }

// Check reports on the known dataset name's file in dataDir: whether it is
// there, whether its checksum matches, and (when load is true) how many
// problems it holds. Problems with the file are reported in the status,
// not as an error; the error is for an unknown name or a cancelled ctx.
func Check(ctx context.Context, dataDir, name string, load bool) (FileStatus, error) {
	spec, ok := LookupDownload(name)
	if !ok {
		return FileStatus{}, fmt.Errorf("%w %q: want one of %s", ErrUnknown, name, strings.Join(DownloadNames(), ", "))
	}
	st := FileStatus{Spec: spec, Name: spec.Name, Path: spec.Path(dataDir)}
	sum, _, err := fileSHA256(st.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		st.Err = fmt.Sprintf("missing; run \"ticoder data fetch %s\"", name)
		return st, nil
	case err != nil:
		st.Present = true
		st.Err = err.Error()
		return st, nil
	}
	st.Present, st.SHA256 = true, sum
	st.ChecksumOK = sum == spec.SHA256
	if !st.ChecksumOK {
		st.Err = fmt.Sprintf("%v: got %s, want %s; run \"ticoder data fetch %s\" to replace it", ErrChecksum, sum, spec.SHA256, name)
	}
	if load && spec.Samples {
		if st.Rows, err = countSampleRows(st.Path); err != nil && st.Err == "" {
			st.Err = err.Error()
		}
	} else if load {
		ds, err := LoadFile(ctx, spec.Name, st.Path)
		if ctx.Err() != nil {
			return FileStatus{}, ctx.Err()
		}
		if err != nil {
			if st.Err == "" {
				st.Err = err.Error()
			}
		} else {
			st.Rows = ds.Len()
		}
	}
	return st, nil
}

// countSampleRows counts the rows of a recorded samples file: JSON objects
// with a "prompt" string (and, but for the test prompts, "samples"),
// failing on the first row that is not one.
func countSampleRows(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	n := 0
	for {
		var row struct {
			Prompt *string `json:"prompt"`
		}
		err := dec.Decode(&row)
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil || row.Prompt == nil {
			return n, fmt.Errorf("row %d is not an object with a \"prompt\" (%v)", n+1, err)
		}
		n++
	}
}
