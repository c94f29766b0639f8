//! The MCP endpoint's own families, registered where the application is built and counted
//! here as calls are answered: calls per method and tool (with whether the result was an
//! error), and what each paid call came to.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;

use crate::purchase::mcp::Paying;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    method: &'static str,
    /// The tool called (a known one), else empty.
    tool: &'static str,
    /// `ok`, `error` (a tool result with `isError`) or `rpc_error`.
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PaymentLabels {
    outcome: &'static str,
}

#[derive(Debug, Clone, Default)]
pub struct McpMetrics {
    calls: Family<CallLabels, Counter>,
    payments: Family<PaymentLabels, Counter>,
}

/// The methods counted by name; any other is `other` (labels stay bounded).
const METHODS: [&str; 9] = [
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "notifications",
];

const TOOLS: [&str; 5] = [
    "search_entries",
    "get_entry",
    "list_journals",
    "get_journal",
    crate::purchase::terms::TOOL,
];

impl McpMetrics {
    pub fn new(registry: &mut Registry) -> Self {
        let m = McpMetrics::default();
        registry.register(
            "jm_mcp_calls",
            "MCP requests answered, by method, tool (tools/call) and outcome (ok, error: a tool result with isError, rpc_error)",
            m.calls.clone(),
        );
        registry.register(
            "jm_mcp_payments",
            "Paid MCP calls (read_journal, a paid journal:// read) by outcome: challenged, refused, settled, reread, failed",
            m.payments.clone(),
        );
        m
    }

    pub fn call(&self, method: &str, tool: Option<&str>, outcome: &'static str) {
        let method = METHODS
            .iter()
            .find(|m| **m == method)
            .copied()
            .unwrap_or("other");
        let tool = tool
            .and_then(|t| TOOLS.iter().find(|k| **k == t).copied())
            .unwrap_or("");
        self.calls
            .get_or_create(&CallLabels {
                method,
                tool,
                outcome,
            })
            .inc();
    }

    pub fn payment(&self, p: Paying) {
        self.payments
            .get_or_create(&PaymentLabels {
                outcome: p.as_str(),
            })
            .inc();
    }
}
