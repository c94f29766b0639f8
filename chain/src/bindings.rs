//! Contract interfaces, signature for signature as protocols.md gives them.
// The generated functions take one argument per Solidity parameter.
#![allow(clippy::too_many_arguments)]

use alloy::sol;

sol! {
    #[sol(rpc)]
    interface IERC20 {
        event Transfer(address indexed from, address indexed to, uint256 value);
        function name() external view returns (string);
        function symbol() external view returns (string);
        function decimals() external view returns (uint8);
        function totalSupply() external view returns (uint256);
        function balanceOf(address owner) external view returns (uint256);
        function allowance(address owner, address spender) external view returns (uint256);
        function approve(address spender, uint256 amount) external returns (bool);
        function transfer(address to, uint256 amount) external returns (bool);
    }

    /// USDG and the stock tokens: ERC-20s the deployer can mint.
    #[sol(rpc)]
    interface IMintable {
        function mint(address to, uint256 amount) external;
    }

    #[sol(rpc)]
    interface IWETH {
        function deposit() external payable;
    }

    #[sol(rpc)]
    interface IPermit2 {
        function DOMAIN_SEPARATOR() external view returns (bytes32);
        function nonceBitmap(address owner, uint256 word) external view returns (uint256);
    }

    #[sol(rpc)]
    interface IX402ExactPermit2Proxy {
        struct TokenPermissions { address token; uint256 amount; }
        struct PermitTransferFrom { TokenPermissions permitted; uint256 nonce; uint256 deadline; }
        struct Witness { address to; uint256 validAfter; }
        function settle(PermitTransferFrom permit, address owner, Witness witness, bytes signature) external;
    }

    #[sol(rpc)]
    interface IIdentityRegistry {
        struct MetadataEntry { string key; bytes value; }
        event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
        event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
        function register(string agentURI) external returns (uint256 agentId);
        function register(string agentURI, MetadataEntry[] metadata) external returns (uint256 agentId);
        function register() external returns (uint256 agentId);
        function tokenURI(uint256 agentId) external view returns (string);
        function ownerOf(uint256 agentId) external view returns (address);
        function setAgentURI(uint256 agentId, string newURI) external;
        function transferFrom(address from, address to, uint256 tokenId) external;
    }

    #[sol(rpc)]
    interface IReputationRegistry {
        event NewFeedback(uint256 indexed agentId, address indexed clientAddress, uint64 feedbackIndex,
                          int128 value, uint8 valueDecimals, string indexed indexedTag1, string tag1,
                          string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash);
        event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint64 indexed feedbackIndex);
        function giveFeedback(uint256 agentId, int128 value, uint8 valueDecimals, string tag1, string tag2,
                              string endpoint, string feedbackURI, bytes32 feedbackHash) external;
        function revokeFeedback(uint256 agentId, uint64 feedbackIndex) external;
    }

    #[sol(rpc)]
    interface IPriceFeed {
        function decimals() external view returns (uint8);
        function latestRoundData() external view returns (uint80 roundId, int256 answer, uint256 startedAt,
                                                          uint256 updatedAt, uint80 answeredInRound);
        function setAnswer(int256 answer) external;
        function setRound(int256 answer, uint256 updatedAt) external;
    }

    #[sol(rpc)]
    interface IPool {
        event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1,
                   uint160 sqrtPriceX96, uint128 liquidity, int24 tick);
        function fee() external view returns (uint24);
        function token0() external view returns (address);
        function token1() external view returns (address);
        function slot0() external view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex,
                                                uint16 observationCardinality, uint16 observationCardinalityNext,
                                                uint8 feeProtocol, bool unlocked);
        function addLiquidity(uint256 amount0, uint256 amount1) external;
        function swap(address recipient, bool zeroForOne, uint256 amountIn, uint256 minOut)
            external returns (int256 amount0, int256 amount1);
    }

    #[sol(rpc)]
    interface IFeeLocker {
        function creatorShareBps() external view returns (uint256);
        function pool() external view returns (address);
        function creator() external view returns (address);
    }

    #[sol(rpc)]
    interface ISmartWallet {
        function owner() external view returns (address);
        function execute(address to, uint256 value, bytes data) external;
        function isValidSignature(bytes32 hash, bytes signature) external view returns (bytes4);
        function domainSeparator() external view returns (bytes32);
    }

    #[sol(rpc)]
    interface ISmartWalletFactory {
        function deploy(address owner, bytes32 salt) external returns (address);
        function getAddress(address owner, bytes32 salt) external view returns (address);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::b256;
    use alloy::sol_types::{SolCall, SolEvent};

    #[test]
    fn selectors_and_topics_match_protocols_md() {
        let selectors = [
            (
                IX402ExactPermit2Proxy::settleCall::SELECTOR,
                [0x13, 0xcd, 0x3b, 0x53],
            ),
            (
                IIdentityRegistry::register_0Call::SELECTOR,
                [0xf2, 0xc2, 0x98, 0xbe],
            ),
            (
                IIdentityRegistry::tokenURICall::SELECTOR,
                [0xc8, 0x7b, 0x56, 0xdd],
            ),
            (
                IIdentityRegistry::ownerOfCall::SELECTOR,
                [0x63, 0x52, 0x21, 0x1e],
            ),
            (
                IReputationRegistry::giveFeedbackCall::SELECTOR,
                [0x3c, 0x03, 0x6a, 0x7e],
            ),
        ];
        for (n, (ours, theirs)) in selectors.iter().enumerate() {
            assert_eq!(ours, theirs, "selector {n}");
        }
        let topics = [
            (
                IReputationRegistry::NewFeedback::SIGNATURE_HASH,
                b256!("0x6a4a61743519c9d648a14e6493f47dbe3ff1aa29e7785c96c8326a205e58febc"),
            ),
            (
                IPool::Swap::SIGNATURE_HASH,
                b256!("0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67"),
            ),
            (
                IERC20::Transfer::SIGNATURE_HASH,
                b256!("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"),
            ),
        ];
        for (n, (ours, theirs)) in topics.iter().enumerate() {
            assert_eq!(ours, theirs, "topic {n}");
        }
    }
}
