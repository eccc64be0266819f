package dataset

import (
	"path/filepath"
)

// Spec describes a known benchmark file: where it lives in the data directory,
// where it is published, and the checksum the published file has.
type Spec struct {
	// Name is what users type: "humaneval", "mbpp", ...
	Name string
	// File is the file's path inside the data directory, slash-separated.
	File string
	// URL is the canonical public address of the file.
	URL string
	// SHA256 is the hex SHA-256 of the published file.
	SHA256 string
	// Rows is the number of problems the file holds.
	Rows int
	// About says in a few words what the dataset is.
	About string
	// Samples marks recorded generations of a model (CodeT's
	// {"prompt", "samples"} rows, for replay: and check) rather than a
	// benchmark's problems: Rows counts those rows, and the file is not a
	// --dataset.
	Samples bool
}

// Path returns the spec's file under dataDir.
func (s Spec) Path(dataDir string) string {
	return filepath.Join(dataDir, filepath.FromSlash(s.File))
}

// Known returns the specs of the datasets ticoder knows by name, in a fixed
// order. The caller may modify the returned slice.
//
// The HumanEval-noexamples file is microsoft/CodeT's
// hmeval_for_code_generation.jsonl (HumanEval with the docstring examples
// removed, the TiCoder paper's setting), pinned to the commit that added it.
func Known() []Spec {
	return []Spec{
		{
			Name:   "humaneval",
			File:   "humaneval/HumanEval.jsonl.gz",
			URL:    "https://raw.githubusercontent.com/openai/human-eval/master/data/HumanEval.jsonl.gz",
			SHA256: "b796127e635a67f93fb35c04f4cb03cf06f38c8072ee7cee8833d7bee06979ef",
			Rows:   164,
			About:  "HumanEval (OpenAI), prompts with docstring examples",
		},
		{
			Name:   "humaneval-noexamples",
			File:   "humaneval/HumanEval-noexamples.jsonl",
			URL:    "https://raw.githubusercontent.com/microsoft/CodeT/61edff88a9823849b72d58c2a9eaac673c1056b5/CodeT/data/dataset/hmeval_for_code_generation.jsonl",
			SHA256: "882c3d56432b2b5b9e568398d7ebdf54f2c84fdb05fef3b833a3d935ad71861c",
			Rows:   164,
			About:  "HumanEval without docstring examples (microsoft/CodeT; the TiCoder paper's setting)",
		},
		{
			Name:   "mbpp",
			File:   "mbpp/mbpp.jsonl",
			URL:    "https://raw.githubusercontent.com/google-research/google-research/master/mbpp/mbpp.jsonl",
			SHA256: "0b7004a79cd62d9ec7ecdd5a6e5f0ef1210ff00b286df3c5d5b57bf38c58e19a",
			Rows:   974,
			About:  "MBPP full (Google)",
		},
		{
			Name:   "mbpp-sanitized",
			File:   "mbpp/sanitized-mbpp.json",
			URL:    "https://raw.githubusercontent.com/google-research/google-research/master/mbpp/sanitized-mbpp.json",
			SHA256: "ca95deaa9a01ef0a6f439f88bcf0dd3db3563d22f22aad6cae04ebb9a8d8c8e9",
			Rows:   427,
			About:  "MBPP sanitized (Google; the TiCoder paper's MBPP)",
		},
		{
			Name:   "humanevalplus",
			File:   "humanevalplus/HumanEvalPlus.jsonl.gz",
			URL:    "https://github.com/evalplus/humanevalplus_release/releases/download/v0.1.10/HumanEvalPlus.jsonl.gz",
			SHA256: "272720b90ac375502c8ed23cd791c2a93dfb22a911641a494da74a426c09f101",
			Rows:   164,
			About:  "HumanEval+ v0.1.10 (evalplus): HumanEval with ~80× more test inputs",
		},
		{
			Name:   "mbppplus",
			File:   "mbppplus/MbppPlus.jsonl.gz",
			URL:    "https://github.com/evalplus/mbppplus_release/releases/download/v0.2.0/MbppPlus.jsonl.gz",
			SHA256: "af43697e8791c4c149bdfd6b489d8b5412507551ac20e28a439f650b8225db63",
			Rows:   378,
			About:  "MBPP+ v0.2.0 (evalplus): 378 sanitized-MBPP tasks with ~35× more test inputs",
		},
		{
			Name:   "mbjp",
			File:   "mbjp/mbjp_release_v1.2.jsonl",
			URL:    "https://raw.githubusercontent.com/amazon-science/mxeval/main/data/mbxp/mbjp_release_v1.2.jsonl",
			SHA256: "139a0fcdff2f4c6d456c546c82f43a1f389dfe3125f5f2c3f6a12f478483dffd",
			Rows:   966,
			About:  "MBJP: MBPP in Java (Amazon's MBXP; 874 rows have a canonical solution)",
		},
	}
}

// codeT is the microsoft/CodeT commit the recorded samples are pinned to.
const codeT = "https://raw.githubusercontent.com/microsoft/CodeT/35f54d60b152cc31d134b788e702878ad613d9f7/CodeT/data/"

// Recorded returns the specs of the recorded generations that `data fetch`
// downloads besides the datasets: microsoft/CodeT's CodeGen-16B-mono samples
// on HumanEval-noexamples (MIT), which replay: and the examples read. The
// caller may modify the returned slice.
func Recorded() []Spec {
	return []Spec{
		{
			Name:    "codegen16b-codes",
			File:    "samples/humaneval-codegen16b/codes.jsonl",
			URL:     codeT + "generated_data/HumanEval_codegen16B_temp0.8_topp0.95_num100_max300_code_solution.jsonl",
			SHA256:  "239b84349993c19a98bc4bf96a9a9ac47908125b3242db72788471e6c58728d5",
			Rows:    164,
			About:   "CodeGen-16B-mono, 100 function bodies per HumanEval-noexamples problem (microsoft/CodeT)",
			Samples: true,
		},
		{
			Name:    "codegen16b-tests",
			File:    "samples/humaneval-codegen16b/tests.jsonl",
			URL:     codeT + "generated_data/HumanEval_codegen16B_temp0.8_topp0.95_num100_max300_test_case.jsonl",
			SHA256:  "ac10882a8b480ab04e591f39a4c62ce8faa1c207aae1c3e4679ad9ec8215a255",
			Rows:    164,
			About:   "CodeGen-16B-mono, 100 test completions per problem (microsoft/CodeT)",
			Samples: true,
		},
		{
			Name:    "codegen16b-test-prompts",
			File:    "samples/humaneval-codegen16b/test-prompts.jsonl",
			URL:     codeT + "dataset/HumanEval_for_test_case_generation.jsonl",
			SHA256:  "32c8f69001f439f3817b9124b54c78870d90b5c54e2babafdd9598bc5adf322e",
			Rows:    164,
			About:   "the test prompts of those completions (microsoft/CodeT)",
			Samples: true,
		},
	}
}

// Downloads returns every file `data fetch` knows: Known, then Recorded.
func Downloads() []Spec {
	return append(Known(), Recorded()...)
}

// LookupDownload returns the spec of the dataset or recorded file called
// name (see Downloads).
func LookupDownload(name string) (Spec, bool) {
	for _, s := range Downloads() {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// DownloadNames returns the names of Downloads.
func DownloadNames() []string {
	var names []string
	for _, s := range Downloads() {
		names = append(names, s.Name)
	}
	return names
}

// Lookup returns the spec of the known dataset called name.
func Lookup(name string) (Spec, bool) {
	for _, s := range Known() {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Names returns the names of the known datasets.
func Names() []string {
	specs := Known()
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return names
}
