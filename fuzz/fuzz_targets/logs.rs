//! The log decoder: an `eth_getLogs` answer read field by field, then each log as the indexers
//! decode it (votes from the reputation registry, swaps and transfers of the token ledger), and
//! the ledger's totals of what they decode to.
//!
//! Input: an answer's JSON (starting with `{`), or bytes that build one log: which contract, its
//! topics (the first often one of the events read) and its data (often a whole encoded event).
//! Asserts that the field-by-field reader agrees with alloy's own, and that totals added and
//! taken away leave nothing.
#![no_main]

use alloy::primitives::{Address, B256, Bytes, I256, LogData, Signed, U256, Uint, aliases::U160};
use alloy::rpc::json_rpc::Response;
use alloy::rpc::types::Log;
use alloy::sol_types::SolEvent;
use arbitrary::{Arbitrary, Unstructured};
use journal_market_actors::indexer::ledger::{self, LedgerAddresses, LedgerEvent};
use journal_market_actors::indexer::votes;
use journal_market_chain::bindings::{IERC20, IPool, IReputationRegistry};
use journal_market_chain::fuzzing::logs_page;
use journal_market_domain::ledger::{Swap, Totals, price_weth, volume_weth};
use libfuzzer_sys::fuzz_target;

const ADDRESSES: LedgerAddresses = LedgerAddresses {
    token: Address::repeat_byte(0x70),
    pool: Address::repeat_byte(0x90),
};

fn one(log: &Log) {
    if let Some(e) = votes::decode(log) {
        assert_eq!(e.at().block, log.block_number.unwrap_or_default());
        if let votes::Event::Feedback(f) = &e
            && let Ok(v) = votes::rules(f)
        {
            assert!(v == 1 || v == -1);
        }
    }
    match ledger::decode(log, &ADDRESSES) {
        Some(LedgerEvent::Swap {
            amount0,
            amount1,
            sqrt_price_x96,
            ..
        }) => {
            assert_eq!(log.address(), ADDRESSES.pool);
            let t = Totals::swap(&Swap {
                amount0,
                amount1,
                sqrt_price_x96,
            });
            let mut sum = Totals::default();
            sum += &t;
            sum += &t;
            sum -= &t;
            assert_eq!(sum, t);
            sum -= &t;
            assert_eq!(sum, Totals::default());
            for token0 in [true, false] {
                if let Some(p) = price_weth(sqrt_price_x96, token0) {
                    assert!(p.is_finite() && p > 0.0);
                }
                assert!(volume_weth([(amount0, amount1)], token0) >= 0.0);
            }
        }
        Some(LedgerEvent::Transfer { amount, .. }) => {
            assert_eq!(log.address(), ADDRESSES.token);
            let t = Totals::burn(amount);
            let mut sum = t;
            sum -= &t;
            assert_eq!(sum, Totals::default());
        }
        None => {}
    }
}

fn page(data: &[u8]) {
    let Some(Ok(logs)) = logs_page(data) else {
        return;
    };
    // The field-by-field reader agrees with alloy's where alloy reads the answer too.
    if let Ok(r) = serde_json::from_slice::<Response<Vec<Log>>>(data)
        && let Some(theirs) = r.payload.as_success()
    {
        assert_eq!(&logs, theirs);
    }
    for l in &logs {
        one(l);
    }
}

#[derive(Arbitrary, Debug)]
enum Event {
    Feedback {
        agent: [u8; 32],
        client: [u8; 20],
        index: u64,
        value: i128,
        decimals: u8,
        tag1: String,
        tag2: String,
        endpoint: String,
    },
    Revoke {
        agent: [u8; 32],
        client: [u8; 20],
        index: u64,
    },
    Swap {
        amount0: [u8; 32],
        amount1: [u8; 32],
        sqrt_price: [u8; 20],
        liquidity: u128,
        tick: i32,
    },
    Transfer {
        from: [u8; 20],
        to: [u8; 20],
        value: [u8; 32],
    },
    Raw {
        topics: Vec<[u8; 32]>,
        data: Vec<u8>,
    },
}

fn encoded(e: Event) -> LogData {
    match e {
        Event::Feedback {
            agent,
            client,
            index,
            value,
            decimals,
            tag1,
            tag2,
            endpoint,
        } => IReputationRegistry::NewFeedback {
            agentId: U256::from_be_bytes(agent),
            clientAddress: Address::from(client),
            feedbackIndex: index,
            value,
            valueDecimals: decimals,
            indexedTag1: alloy::primitives::keccak256(tag1.as_bytes()),
            tag1,
            tag2,
            endpoint,
            feedbackURI: String::new(),
            feedbackHash: B256::ZERO,
        }
        .encode_log_data(),
        Event::Revoke {
            agent,
            client,
            index,
        } => IReputationRegistry::FeedbackRevoked {
            agentId: U256::from_be_bytes(agent),
            clientAddress: Address::from(client),
            feedbackIndex: index,
        }
        .encode_log_data(),
        Event::Swap {
            amount0,
            amount1,
            sqrt_price,
            liquidity,
            tick,
        } => IPool::Swap {
            sender: Address::ZERO,
            recipient: Address::ZERO,
            amount0: I256::from_raw(U256::from_be_bytes(amount0)),
            amount1: I256::from_raw(U256::from_be_bytes(amount1)),
            sqrtPriceX96: U160::from_be_bytes(sqrt_price),
            liquidity,
            tick: Signed::<24, 1>::from_raw(Uint::<24, 1>::from(tick as u32 & 0xff_ffff)),
        }
        .encode_log_data(),
        Event::Transfer { from, to, value } => IERC20::Transfer {
            from: Address::from(from),
            to: Address::from(to),
            value: U256::from_be_bytes(value),
        }
        .encode_log_data(),
        Event::Raw { topics, data } => LogData::new_unchecked(
            topics.into_iter().map(B256::from).collect(),
            Bytes::from(data),
        ),
    }
}

fn built(data: &[u8]) -> arbitrary::Result<()> {
    let mut u = Unstructured::new(data);
    let address = match u.int_in_range(0..=2u8)? {
        0 => ADDRESSES.pool,
        1 => ADDRESSES.token,
        _ => Address::from(u.arbitrary::<[u8; 20]>()?),
    };
    let mut inner = encoded(Event::arbitrary(&mut u)?);
    // Damage: a cut or a changed byte of the data, a topic dropped.
    match u.int_in_range(0..=3u8)? {
        1 => {
            let n = u.int_in_range(0..=inner.data.len())?;
            inner = LogData::new_unchecked(inner.topics().to_vec(), inner.data.slice(..n));
        }
        2 if !inner.data.is_empty() => {
            let mut d = inner.data.to_vec();
            let i = u.int_in_range(0..=d.len() - 1)?;
            d[i] = u.arbitrary()?;
            inner = LogData::new_unchecked(inner.topics().to_vec(), d.into());
        }
        3 if !inner.topics().is_empty() => {
            let mut t = inner.topics().to_vec();
            t.pop();
            inner = LogData::new_unchecked(t, inner.data.clone());
        }
        _ => {}
    }
    let log = Log {
        inner: alloy::primitives::Log {
            address,
            data: inner,
        },
        block_hash: Some(B256::repeat_byte(3)),
        block_number: Some(u.arbitrary()?),
        block_timestamp: u.arbitrary()?,
        transaction_hash: Some(B256::repeat_byte(4)),
        transaction_index: Some(0),
        log_index: Some(u.arbitrary()?),
        removed: false,
    };
    one(&log);
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    if data.first() == Some(&b'{') {
        page(data);
    } else {
        let _ = built(data);
    }
});
