// Package qestore reads and keeps labelled example sets: CQE files
// (LoadCQE, ReadCQE), sets built from labelled programs
// (ExampleSetFromPrograms), sets built from a samples file (SamplesPool
// unlabelled, LabelSamples labelled by the hidden tests), and Store, which
// keeps example sets and cached embeddings in ticoder's SQLite database
// (tables qe_*, migrated by StoreSchema).
//
// qestore must not score examples: it reads, labels (through package check)
// and keeps them.
package qestore
