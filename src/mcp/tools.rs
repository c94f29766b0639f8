//! The tools: four free ones over the same catalogue reads as the REST routes, and the paid
//! `read_journal` (`super::paid`). A tool's failure is a result with `isError` and
//! `{ "error" }` (what an agent can read and correct); only an unknown tool is a JSON-RPC error.

use actix_web::HttpRequest;
use journal_market_api::EntrySearchRow;
use serde::Deserialize;
use serde_json::{Value, json};

use super::jsonrpc::{INVALID_PARAMS, RpcError, args};
use crate::error::DomainError;
use crate::purchase::mcp::{Paying, failed, success};
use crate::purchase::terms::{TOOL, TOOL_DESCRIPTION, tool_input_schema};
use crate::state::AppState;

/// What a call came to, for the per-tool metrics; `paying` for the paid tool.
pub struct Called {
    pub result: Value,
    pub paying: Option<Paying>,
}

/// `tools/list`.
pub fn list() -> Value {
    let read_only = json!({ "readOnlyHint": true, "openWorldHint": false });
    json!({ "tools": [
        {
            "name": "search_entries",
            "title": "Search the archive",
            "description": "A company's archive entries (up to 80, newest first), optionally only those whose title or summary contains `text`",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "ticker": { "type": "string", "pattern": "^[A-Za-z0-9]{1,10}$" },
                    "text": { "type": "string", "description": "words the title or summary contains, in any case" },
                },
                "required": ["ticker"],
                "additionalProperties": false,
            },
            "annotations": read_only,
        },
        {
            "name": "get_entry",
            "title": "An archive entry",
            "description": "An archive entry by accession number, with its source and the text it was written from",
            "inputSchema": {
                "type": "object",
                "properties": { "accession": { "type": "string", "minLength": 1 } },
                "required": ["accession"],
                "additionalProperties": false,
            },
            "annotations": read_only,
        },
        {
            "name": "list_journals",
            "title": "Journals on sale",
            "description": "Journals on sale, newest first, optionally of one company (ticker)",
            "inputSchema": {
                "type": "object",
                "properties": { "company": { "type": "string", "pattern": "^[A-Za-z0-9]{1,10}$" } },
                "additionalProperties": false,
            },
            "annotations": read_only,
        },
        {
            "name": "get_journal",
            "title": "A journal's preview",
            "description": "A journal's preview, price, audit report and evidence (never its paid text: read_journal)",
            "inputSchema": {
                "type": "object",
                "properties": { "slug": { "type": "string", "minLength": 1, "description": "the journal's slug or id" } },
                "required": ["slug"],
                "additionalProperties": false,
            },
            "annotations": read_only,
        },
        {
            "name": TOOL,
            "title": "Read a journal (paid, x402)",
            "description": TOOL_DESCRIPTION,
            "inputSchema": tool_input_schema(),
            "outputSchema": paid_output_schema(),
            "annotations": { "readOnlyHint": false, "idempotentHint": true, "openWorldHint": true },
        },
    ]})
}

/// The paid tool's results: the text (or a fee's `{ ok, tx, next }`), the PaymentRequired of
/// the x402 MCP binding, or a refusal's `{ error }`. Strict clients validate
/// `structuredContent` even on an error result, so every shape is admitted; draft-07 keywords
/// only, the root an object.
pub fn paid_output_schema() -> Value {
    json!({
        "type": "object",
        "anyOf": [
            {
                "required": ["ok"],
                "properties": {
                    "ok": { "type": "boolean" },
                    "tx": { "type": "string" },
                    "body": { "type": "string" },
                    "html": { "type": "string" },
                    "next": { "type": "string" },
                    "already": { "type": "boolean" },
                    "nextCall": { "type": "object" },
                },
            },
            {
                "required": ["x402Version", "accepts"],
                "properties": {
                    "x402Version": { "type": "integer" },
                    "error": { "type": "string" },
                    "accepts": { "type": "array" },
                    "resource": { "type": "object" },
                    "extensions": { "type": "object" },
                },
            },
            {
                "required": ["error"],
                "properties": { "error": { "type": "string" } },
            },
        ],
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Search {
    ticker: String,
    #[serde(default)]
    text: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    accession: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Company {
    #[serde(default)]
    company: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Journal {
    slug: String,
}

/// `tools/call`: the tool's result, or a JSON-RPC error for a tool that does not exist.
pub async fn call(state: &AppState, req: &HttpRequest, params: Value) -> Result<Called, RpcError> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::new(INVALID_PARAMS, "tools/call needs a \"name\""))?
        .to_string();
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => json!({}),
        Some(a) => a.clone(),
    };
    let free = |r: Result<Value, DomainError>| Called {
        result: r.map(|v| success(v, None)).unwrap_or_else(|e| failed(&e)),
        paying: None,
    };
    Ok(match name.as_str() {
        "search_entries" => free(search(state, arguments).await),
        "get_entry" => free(entry(state, arguments).await),
        "list_journals" => free(journals(state, arguments).await),
        "get_journal" => free(journal(state, arguments).await),
        TOOL => {
            let (result, paying) =
                super::paid::read_journal(state, req, arguments, params.get("_meta")).await;
            Called {
                result,
                paying: Some(paying),
            }
        }
        other => {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!("no tool is named {other:?}: tools/list names them"),
            ));
        }
    })
}

async fn search(state: &AppState, a: Value) -> Result<Value, DomainError> {
    let a: Search = args("search_entries", a)?;
    let rows = state.catalog.search_rows(&a.ticker).await?;
    let rows = matching(rows, a.text.as_deref());
    Ok(json!({ "entries": rows }))
}

/// The rows whose title or summary holds every word of `text`, in any case.
fn matching(rows: Vec<EntrySearchRow>, text: Option<&str>) -> Vec<EntrySearchRow> {
    let words: Vec<String> = text
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    rows.into_iter()
        .filter(|r| {
            let hay = format!("{} {}", r.title, r.summary).to_lowercase();
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .collect()
}

async fn entry(state: &AppState, a: Value) -> Result<Value, DomainError> {
    let a: Entry = args("get_entry", a)?;
    Ok(serde_json::to_value(
        state.catalog.entry(&a.accession).await?,
    )?)
}

async fn journals(state: &AppState, a: Value) -> Result<Value, DomainError> {
    let a: Company = args("list_journals", a)?;
    Ok(serde_json::from_slice(
        &state.catalog.journals(a.company.as_deref()).await?,
    )?)
}

async fn journal(state: &AppState, a: Value) -> Result<Value, DomainError> {
    let a: Journal = args("get_journal", a)?;
    let live = state.catalog.shown(&a.slug).await?;
    Ok(serde_json::from_slice(
        &state.catalog.public_detail(&live)?,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(title: &str, summary: &str) -> EntrySearchRow {
        EntrySearchRow {
            id: "JM-1".into(),
            date_of_record: "2026-11-20".into(),
            kind: "filing".into(),
            title: title.into(),
            summary: summary.into(),
            source_name: "x".into(),
        }
    }

    #[test]
    fn text_narrows_a_search_by_every_word_in_any_case() {
        let rows = || vec![row("Data center revenue", "up 20%"), row("Guidance", "cut")];
        assert_eq!(matching(rows(), None).len(), 2);
        assert_eq!(matching(rows(), Some("DATA up")).len(), 1);
        assert_eq!(matching(rows(), Some("data cut")).len(), 0);
    }

    #[test]
    fn every_tool_has_an_object_input_schema_and_the_paid_one_admits_a_payment_required() {
        let l = list();
        let tools = l["tools"].as_array().unwrap();
        assert_eq!(tools.len(), 5);
        for t in tools {
            assert_eq!(t["inputSchema"]["type"], "object", "{t}");
        }
        let paid = tools.iter().find(|t| t["name"] == TOOL).unwrap();
        assert_eq!(paid["outputSchema"]["type"], "object");
        assert_eq!(paid["outputSchema"]["anyOf"][1]["required"][1], "accepts");
    }
}
