// Package api holds the wire types of ticoder's web API (served by
// `ticoder serve` under /api/) and a small Go client for it.
//
// The API is JSON over HTTP:
//
//	GET  /api/info                            → Info
//	GET  /api/demos                           → []Demo
//	POST /api/sessions          CreateSession → Session
//	GET  /api/sessions/{id}                   → Session (with the pending question)
//	POST /api/sessions/{id}/answer  Answer    → Session
//	POST /api/sessions/{id}/undo              → Session
//	POST /api/sessions/{id}/stop              → Session
//	GET  /api/sessions/{id}/candidates        → []Candidate
//	GET  /api/sessions/{id}/export[?candidate=N] → Export
//
// Every error comes back with a 4xx or 5xx status and an Error body whose
// message is written for a person. This package imports nothing from
// ticoder's internal packages, so other programs can use it.
package api
