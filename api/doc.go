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
//	GET  /api/project                         → Project (serve --project)
//	POST /api/sessions/{id}/write   WriteRequest → Written (serve --project)
//
// Every request other than GET must send a JSON body with Content-Type:
// application/json ({} where the endpoint reads none), or it is refused with
// 415. A server that needs an access token (one not listening on a loopback
// address, or started with --token) refuses API requests without it with
// 401, and with a wrong one with 403; send it as the header Authorization:
// Bearer TOKEN (NewClient does, given the address with ?token= that the
// server prints). The server answers only requests whose Host names it and
// that come from its own page or from a program that is not a browser; it
// sends no CORS headers.
//
// Every error comes back with a 4xx or 5xx status and an Error body whose
// message is written for a person. This package imports nothing from
// ticoder's internal packages, so other programs can use it.
package api
