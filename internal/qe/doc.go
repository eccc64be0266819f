// Package qe estimates the functional correctness of generated code without
// tests ("code quality estimation"), after the in-context-learning estimator
// of the paper in ../shared/seeds/icl-quality-estimation-paper.txt, and
// evaluates estimators with the paper's nDCG measures.
//
// # Packages
//
// This package holds what the others share: the problem, task and example
// set types (Problem, Task, ExampleSet), vectors and embedders (Vector,
// Embedder, the Lexical model and its code-aware Tokenize, APIEmbedder).
// Its sub-packages are
//
//   - estimate: the estimators (Estimator, Setup, KNN, ELS, TLS, ICL, Agree,
//     Sum), retrieval (Index) and docstring examples (ParseExamples);
//   - measure: evaluating estimators (Evaluate, nDCG, Rank) and the
//     report of a plan of runs (RunPlan, Report);
//   - qestore: example sets on disk and in SQLite (Store, LoadCQE,
//     ExampleSetFromPrograms) and the embedding cache.
//
// Imports point one way: estimate and qestore import qe; measure imports
// qe and estimate.
//
// # Definitions
//
// A Task is a problem with labelled solutions; an ExampleSet is a set of tasks that
// serve as the labelled examples (the paper's MBPP training set). Two tasks are
// the same problem when their ProblemKey (dataset + task id, normalised) is
// equal; retrieval never returns an example of the query's own problem.
//
// Similarity of a (problem P, solution S) pair to a labelled pair (P', S') is
//
//	σ = α·cos(e_P, e_P') + (1−α)·cos(e_S, e_S')
//
// with α = 1, 0.5, 0 the paper's FS-P, FS-PS and FS-S variants. Retrieval
// takes the k most similar correct and the k most similar incorrect pairs.
//
// nDCG uses binary relevance (1 = passes the hidden tests) and matches
// scikit-learn's ndcg_score, including its averaging over tied scores.
// Global nDCG ranks all pairs of a test set together; local nDCG ranks the
// solutions of one problem and is averaged over problems. Problems whose
// solutions are all correct or all wrong make local nDCG trivially 1 or 0, so
// the evaluation also reports local nDCG over the mixed problems only and the
// score of a constant estimator (every score tied) as the floor to beat.
//
// # Estimators and their cost
//
// Every estimator implements Estimator: Score(ctx, problem, candidates)
// returns one score per candidate, higher meaning more likely correct.
//
//   - icl: the paper's judge. An LLM is shown an instruction, the k correct
//     and k incorrect retrieved examples and the target pair, and the score is
//     P(yes)/(P(yes)+P(no)) read from the first generated token's top
//     log-probabilities. Cost: one LLM call per candidate with a prompt of
//     2k+1 problem/solution pairs (thousands of tokens), plus embedding the
//     target with the chosen embedder.
//   - zs: icl with k = 0 (the instruction and the target only). Cost: one
//     short LLM call per candidate.
//   - knn: no LLM. The similarity-weighted vote of the retrieved labels.
//     Cost: embedding the target and one similarity per example set pair (about
//     10,000 sparse dot products for the MBPP example set); milliseconds.
//   - els: mean embedding cosine of a solution to the other solutions of its
//     problem (no example set, no LLM). Cost: n² similarities per problem.
//   - tls: token-level similarity to the other solutions, BERTScore-like F1
//     (for the lexical embedder: weighted token-overlap F1; for the api
//     embedder: greedy matching of line vectors). Cost: n² token alignments.
//   - agree: no LLM, execution. The candidates are run in the sandbox on the
//     example calls in the problem's own docstring and on inputs harvested
//     from them; the score combines the docstring-example pass rate with the
//     agreement of a candidate's behaviour with the other candidates'
//     (CodeT-like). Cost: one sandboxed run of n candidates on a handful of
//     calls per problem (tens to hundreds of milliseconds). It needs
//     examples in the prompt: without them every candidate scores 0.5.
//   - combo: agree + 0.25·knn (knn breaks agree's ties and adds a
//     per-problem difficulty prior). Cost: agree's plus knn's.
//   - constant: every score 0, the floor.
//
// The judge's prompt (BuildPrompt) is in our own words with the structure of
// the paper's Figure 2: instruction, examples "Example i:" with problem, code
// and answer, then the target and the answer cue. The paper's text does not
// say how the 2k examples are ordered; its authors' public implementation
// puts the k correct ones first, then the k incorrect ones, each group in
// decreasing similarity, and so do we (Index.Examples).
//
// # Storage
//
// Store (qestore) keeps labelled example sets (from CQE files, or from samples labelled by
// their hidden tests) and cached embeddings, keyed by embedder name, field
// and the text's SHA-256, in ticoder's SQLite database.
//
// # Figures (HumanEval test file of the paper, lexical BM25 embedder)
//
// On train mbpp-codestral-22b (90%, k tuned on the seeded 10% dev split) and
// test heval-codestral-22b, G-nDCG / L-nDCG: constant .889/.639 (the
// floor), knn FS-PS .907/.650, els .868/.642, tls .871/.636, agree
// .977/.728, combo FS-PS .982/.730, oracle 1/.762. The paper reports ELS
// .903/.640, TLS .902/.638, ZS .904/.635 and FS-PS .915/.658 (CodeBERT and
// CodeLlama-7B). Only the execution-based estimators beat FS-PS; the
// lexical ones stay near the floor.
//
// Estimators are safe for concurrent use once built.
//
// qe must not run code: the estimators that run candidates are in
// qe/estimate, on the caller's runner.
package qe
