package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/dataset"
)

// fetchTimeout bounds one download.
const fetchTimeout = 10 * time.Minute

func newDataCommand(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "data",
		Short: "Fetch, list and verify the benchmark datasets",
		Long: `Data manages the benchmark files in the data directory (--data-dir, else
$TICODER_DATA, else ./data). Known datasets:

` + knownDatasetsHelp() + `
Any other JSONL file of {task_id, prompt, entry_point, canonical_solution, test}
rows can be used by giving its path instead of a name.`,
	}
	cmd.AddCommand(newDataFetchCommand(g), newDataListCommand(g), newDataVerifyCommand(g))
	return cmd
}

func newDataFetchCommand(g *globalOptions) *cobra.Command {
	var baseURL string
	cmd := &cobra.Command{
		Use:   "fetch [NAME...|all]",
		Short: "Download datasets from their canonical URLs and check their SHA-256",
		Long: `Fetch downloads each named dataset (all of them when none is named) into the
data directory, checks it against the SHA-256 pinned in ticoder, and only then
moves it into place. A file that is already there with the right checksum is
not downloaded again.

Besides the datasets it knows microsoft/CodeT's recorded CodeGen-16B
samples (samples/humaneval-codegen16b/, which replay: and the examples read):

` + knownFilesHelp(dataset.Recorded()) + `
It does not download the labelled code quality estimation files (cqe/):
their publishers give no address to pin a checksum to. The README's "Data
that data fetch does not download" says where to get them.`,
		Example: `  ticoder data fetch humaneval-noexamples mbpp-sanitized
  ticoder data fetch --data-dir ~/benchmarks all`,
		ValidArgs: append(dataset.DownloadNames(), "all"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := &dataset.Fetcher{Client: &http.Client{Timeout: fetchTimeout}, BaseURL: baseURL}
			return runDataFetch(cmd.Context(), cmd.OutOrStdout(), f, dataset.DataDir(g.dataDir), args)
		},
	}
	cmd.Flags().StringVar(&baseURL, "base-url", "", "download from this mirror instead (files at BASE/humaneval/HumanEval.jsonl.gz, ...)")
	return cmd
}

func newDataListCommand(g *globalOptions) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Show which datasets are in the data directory, their rows and checksums",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDataList(cmd.Context(), cmd.OutOrStdout(), dataset.DataDir(g.dataDir), asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array instead of a table")
	return cmd
}

func newDataVerifyCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "verify [NAME...]",
		Short: "Check the SHA-256 and the contents of the datasets in the data directory",
		Long: `Verify checks every dataset present in the data directory (or the named ones,
which must be present) against its pinned SHA-256 and loads it. It fails if
any checked file is wrong.`,
		ValidArgs: dataset.DownloadNames(),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDataVerify(cmd.Context(), cmd.OutOrStdout(), dataset.DataDir(g.dataDir), args)
		},
	}
}

// dataNames expands the command-line names: none or "all" means every
// known dataset; unknown names are a usage error.
func dataNames(args []string) ([]string, error) {
	if len(args) == 0 {
		return dataset.DownloadNames(), nil
	}
	var names []string
	for _, a := range args {
		if a == "all" {
			return dataset.DownloadNames(), nil
		}
		if _, ok := dataset.LookupDownload(a); !ok {
			return nil, fmt.Errorf("%w %q: want one of %s, or all", dataset.ErrUnknown, a, strings.Join(dataset.DownloadNames(), ", "))
		}
		names = append(names, a)
	}
	return names, nil
}

// runDataFetch downloads the named datasets into dir.
func runDataFetch(ctx context.Context, w io.Writer, f *dataset.Fetcher, dir string, args []string) error {
	names, err := dataNames(args)
	if err != nil {
		return err
	}
	var failed []string
	for _, name := range names {
		res, err := f.Fetch(ctx, dir, name)
		switch {
		case errors.Is(err, context.Canceled):
			return err
		case err != nil:
			fmt.Fprintf(w, "%s: FAILED: %v\n", name, err)
			failed = append(failed, name)
		case res.Skipped:
			fmt.Fprintf(w, "%s: already present, checksum ok (%s)\n", name, res.Path)
		default:
			fmt.Fprintf(w, "%s: downloaded %d bytes from %s, checksum ok (%s)\n", name, res.Bytes, res.URL, res.Path)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("fetch failed for %s (see above)", strings.Join(failed, ", "))
	}
	return nil
}

// runDataList prints the state of every known dataset in dir.
func runDataList(ctx context.Context, w io.Writer, dir string, asJSON bool) error {
	var all []dataset.FileStatus
	for _, name := range dataset.DownloadNames() {
		st, err := dataset.Check(ctx, dir, name, true)
		if err != nil {
			return err
		}
		all = append(all, st)
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(all)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPRESENT\tROWS\tSHA-256\tPATH")
	for _, st := range all {
		present, rows, sum := "no", "-", "-"
		if st.Present {
			present, rows, sum = "yes", fmt.Sprint(st.Rows), "mismatch"
			if st.ChecksumOK {
				sum = "ok"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", st.Name, present, rows, sum, st.Path)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, st := range all {
		if st.Present && st.Err != "" {
			fmt.Fprintf(w, "%s: %s\n", st.Name, st.Err)
		}
	}
	return nil
}

// runDataVerify checks the datasets in dir; see newDataVerifyCommand.
func runDataVerify(ctx context.Context, w io.Writer, dir string, args []string) error {
	names, err := dataNames(args)
	if err != nil {
		return err
	}
	explicit := len(args) > 0
	var bad []string
	checked := 0
	for _, name := range names {
		st, err := dataset.Check(ctx, dir, name, true)
		if err != nil {
			return err
		}
		switch {
		case !st.Present && !explicit:
			fmt.Fprintf(w, "%s: not present (skipped)\n", name)
			continue
		case st.OK():
			fmt.Fprintf(w, "%s: ok (%d rows, sha256 %s)\n", name, st.Rows, st.SHA256)
		default:
			fmt.Fprintf(w, "%s: BAD: %s\n", name, st.Err)
			bad = append(bad, name)
		}
		checked++
	}
	switch {
	case len(bad) > 0:
		return fmt.Errorf("verify: %s failed; run \"ticoder data fetch %s\" to download good copies", strings.Join(bad, ", "), strings.Join(bad, " "))
	case checked == 0:
		return fmt.Errorf("verify: no datasets in %s; run \"ticoder data fetch\", or point --data-dir or $%s at your data", dir, dataset.EnvDataDir)
	}
	return nil
}

// knownDatasetsHelp lists the known datasets for the help text.
func knownDatasetsHelp() string {
	return knownFilesHelp(dataset.Known())
}

// knownFilesHelp lists specs for a help text, a line each.
func knownFilesHelp(specs []dataset.Spec) string {
	var b strings.Builder
	for _, s := range specs {
		unit := "problems"
		if s.Samples {
			unit = "rows"
		}
		fmt.Fprintf(&b, "  %-24s %s (%d %s)\n", s.Name, s.About, s.Rows, unit)
	}
	return b.String()
}
