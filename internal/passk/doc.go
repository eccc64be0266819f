// Package passk computes the unbiased pass@k estimator of Chen et al. (2021),
// "Evaluating Large Language Models Trained on Code".
//
// passk must not depend on any other ticoder package: it is arithmetic.
package passk
