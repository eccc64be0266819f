// Package passk computes the unbiased pass@k estimator of Chen et al. (2021),
// "Evaluating Large Language Models Trained on Code".
package passk
