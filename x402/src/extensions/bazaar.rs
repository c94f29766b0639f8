//! `bazaar`: what a paid resource takes and answers, for catalogues and agents (x402
//! discovery). The declaration is `{ info: { input, output }, schema }` where `schema` validates
//! `info`, plus a top-level `routeTemplate` for a route with path parameters. Shapes as the
//! reference packages build them (`declare_discovery_extension`, then the per-request
//! enrichment that sets `input.method` and `pathParams`).

use serde_json::{Map, Value, json};

pub const KEY: &str = "bazaar";

const SCHEMA: &str = "https://json-schema.org/draft/2020-12/schema";

/// A GET resource: its path parameters (an example of each), the query parameters it accepts
/// (name → JSON schema, all optional), an example answer, and its route template
/// (`/api/journals/:slug/text`).
pub fn declare_get(
    path_params: &Map<String, Value>,
    query_params: &Map<String, Value>,
    output_example: Value,
    route_template: &str,
) -> Value {
    let mut properties = json!({
        "type": { "type": "string", "const": "http" },
        "method": { "type": "string", "enum": ["GET"] },
        "pathParams": { "type": "object" },
    });
    if !query_params.is_empty() {
        properties["queryParams"] = json!({ "type": "object", "properties": query_params });
    }
    let mut d = declaration(
        json!({ "type": "http", "method": "GET", "pathParams": path_params }),
        properties,
        &["type", "method"],
        output_example,
    );
    d["routeTemplate"] = json!(route_template);
    d
}

/// A POST resource taking a JSON body: an example body and its schema, and an example answer.
pub fn declare_post_json(body_example: Value, body_schema: Value, output_example: Value) -> Value {
    declaration(
        json!({ "type": "http", "method": "POST", "bodyType": "json", "body": body_example }),
        json!({
            "type": { "type": "string", "const": "http" },
            "method": { "type": "string", "enum": ["POST"] },
            "bodyType": { "type": "string", "enum": ["json"] },
            "body": body_schema,
        }),
        &["type", "method", "bodyType", "body"],
        output_example,
    )
}

/// An MCP tool (the x402 MCP binding's discovery, `declare_mcp_discovery_extension`): its name,
/// what it does, its input schema and an example of its arguments, and an example answer.
pub fn declare_mcp(
    tool_name: &str,
    description: &str,
    input_schema: Value,
    example: Value,
    output_example: Value,
) -> Value {
    declaration(
        json!({
            "type": "mcp",
            "toolName": tool_name,
            "description": description,
            "transport": "streamable-http",
            "inputSchema": input_schema,
            "example": example,
        }),
        json!({
            "type": { "type": "string", "const": "mcp" },
            "toolName": { "type": "string", "minLength": 1 },
            "description": { "type": "string" },
            "transport": { "type": "string", "enum": ["streamable-http", "sse"] },
            "inputSchema": { "type": "object" },
            "example": { "type": "object" },
        }),
        &["type", "toolName", "inputSchema"],
        output_example,
    )
}

/// `info` (an example `input` and answer) and the `schema` that validates it, for any method:
/// `input` takes exactly the keys of `input_properties`.
fn declaration(
    input: Value,
    input_properties: Value,
    required: &[&str],
    output_example: Value,
) -> Value {
    json!({
        "info": {
            "input": input,
            "output": { "type": "json", "example": output_example },
        },
        "schema": {
            "$schema": SCHEMA,
            "type": "object",
            "properties": {
                "input": {
                    "type": "object",
                    "properties": input_properties,
                    "required": required,
                    "additionalProperties": false,
                },
                "output": {
                    "type": "object",
                    "properties": {
                        "type": { "type": "string" },
                        "example": { "type": "object" },
                    },
                    "required": ["type"],
                },
            },
            "required": ["input"],
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_get_declares_its_method_path_and_route() {
        let mut path = Map::new();
        path.insert("slug".into(), json!("nvda-a-view"));
        let mut query = Map::new();
        query.insert("payer".into(), json!({ "type": "string" }));
        let d = declare_get(
            &path,
            &query,
            json!({ "ok": true }),
            "/api/journals/:slug/text",
        );
        assert_eq!(d["routeTemplate"], "/api/journals/:slug/text");
        assert_eq!(d["info"]["input"]["method"], "GET");
        assert_eq!(d["info"]["input"]["pathParams"]["slug"], "nvda-a-view");
        let input = &d["schema"]["properties"]["input"];
        assert_eq!(
            input["properties"]["queryParams"]["properties"]["payer"]["type"],
            "string"
        );
        assert_eq!(input["additionalProperties"], false);
        // Every key of info.input is allowed by the schema (additionalProperties is false).
        for k in d["info"]["input"].as_object().unwrap().keys() {
            assert!(input["properties"].get(k).is_some(), "{k}");
        }
    }

    #[test]
    fn a_post_declares_its_json_body() {
        let d = declare_post_json(
            json!({ "journalId": 1 }),
            json!({ "type": "object", "required": ["journalId"] }),
            json!({ "ok": true }),
        );
        assert_eq!(d["info"]["input"]["bodyType"], "json");
        assert_eq!(d["info"]["input"]["body"]["journalId"], 1);
        assert_eq!(
            d["schema"]["properties"]["input"]["required"],
            json!(["type", "method", "bodyType", "body"])
        );
        assert!(d.get("routeTemplate").is_none());
    }

    #[test]
    fn a_tool_declares_its_name_and_input_schema() {
        let d = declare_mcp(
            "read_journal",
            "the text",
            json!({ "type": "object" }),
            json!({ "slug": "a" }),
            json!({ "ok": true }),
        );
        assert_eq!(d["info"]["input"]["type"], "mcp");
        assert_eq!(d["info"]["input"]["toolName"], "read_journal");
        let input = &d["schema"]["properties"]["input"];
        for k in d["info"]["input"].as_object().unwrap().keys() {
            assert!(input["properties"].get(k).is_some(), "{k}");
        }
    }
}
