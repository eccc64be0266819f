// Package estimate holds ticoder's code-quality estimators: every
// Estimator scores a problem's candidates, higher meaning more likely
// correct, without running the problem's hidden tests. Setup builds them by
// name (knn, els, tls, agree, combo, icl, zs, constant), and NewSetup builds
// a Setup from plain options (SetupOptions); Index retrieves
// labelled examples for knn and icl; Agree runs candidates on the examples
// of the problem's own docstring (ParseExamples) in the sandbox; Prior turns
// an estimator into a ranking prior for the question loop.
//
// The estimators, their definitions and their costs are described in
// package qe's documentation. Estimators are safe for concurrent use once
// built.
//
// An estimator must not use the hidden tests or the labels of the problem it
// scores.
package estimate
