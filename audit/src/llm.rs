//! The LLM reviewer's request (OpenAI-compatible chat completions with a JSON schema) and the
//! parsing of its answer.
