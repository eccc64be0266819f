// Package measure evaluates code-quality estimators against labels: nDCG
// (global and local, as scikit-learn's ndcg_score, with ties averaged),
// the constant-score floor, top-1 pass rate, and the report of a plan of
// estimator runs (RunPlan, Report.Markdown), including tuning k on a dev
// split, and the check of a samples file's ranking against its hidden tests
// (Ranks, CheckSamples). Package qe's documentation defines the measures.
//
// measure must not hold an estimator's rules: it runs the estimators package
// estimate builds and scores their output.
package measure
