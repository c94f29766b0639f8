// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IIdentityRegistry {
    function ownerOf(uint256 tokenId) external view returns (address);
    function isApprovedForAll(address owner, address operator) external view returns (bool);
    function getApproved(uint256 tokenId) external view returns (address);
}

/// @notice ERC-8004 ReputationRegistry (v2.0.0 interface). A vote on a journal is one
/// `giveFeedback(tokenId, ±1, 0, tag, "", pageUrl, "", 0x0)` from the reader's wallet; the
/// service indexes the NewFeedback events.
contract ReputationRegistry {
    struct Feedback {
        int128 value;
        uint8 valueDecimals;
        bool isRevoked;
        string tag1;
        string tag2;
    }

    /// topic0 0x6a4a61743519c9d648a14e6493f47dbe3ff1aa29e7785c96c8326a205e58febc
    event NewFeedback(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        int128 value,
        uint8 valueDecimals,
        string indexed indexedTag1,
        string tag1,
        string tag2,
        string endpoint,
        string feedbackURI,
        bytes32 feedbackHash
    );

    event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint64 indexed feedbackIndex);

    uint8 public constant MAX_VALUE_DECIMALS = 18;

    /// Slot 0, as in the reference deployment: a copy placed with anvil_setCode can be pointed
    /// at an identity registry with anvil_setStorageAt(addr, 0, registry).
    address private _identityRegistry;

    mapping(uint256 => mapping(address => mapping(uint64 => Feedback))) private _feedback;
    mapping(uint256 => mapping(address => uint64)) private _lastIndex;
    mapping(uint256 => address[]) private _clients;
    mapping(uint256 => mapping(address => bool)) private _clientExists;

    constructor(address identityRegistry_) {
        require(identityRegistry_ != address(0), "bad identity");
        _identityRegistry = identityRegistry_;
    }

    function getIdentityRegistry() external view returns (address) {
        return _identityRegistry;
    }

    function getVersion() external pure returns (string memory) {
        return "2.0.0";
    }

    /// selector 0x3c036a7e. Strings are `memory` (not calldata) to keep the 11-field event
    /// within the legacy code generator's stack limit.
    function giveFeedback(
        uint256 agentId,
        int128 value,
        uint8 valueDecimals,
        string memory tag1,
        string memory tag2,
        string memory endpoint,
        string memory feedbackURI,
        bytes32 feedbackHash
    ) external {
        require(valueDecimals <= MAX_VALUE_DECIMALS, "too many decimals");
        _requireNotOwnerOrOperator(agentId);
        uint64 index = _store(agentId, value, valueDecimals, tag1, tag2);
        emit NewFeedback(
            agentId, msg.sender, index, value, valueDecimals, tag1, tag1, tag2, endpoint, feedbackURI, feedbackHash
        );
    }

    /// The agent must exist, and its owner and operators cannot rate it.
    function _requireNotOwnerOrOperator(uint256 agentId) private view {
        IIdentityRegistry registry = IIdentityRegistry(_identityRegistry);
        address agentOwner;
        try registry.ownerOf(agentId) returns (address o) {
            agentOwner = o;
        } catch {}
        require(agentOwner != address(0), "Agent does not exist");
        require(
            msg.sender != agentOwner && !registry.isApprovedForAll(agentOwner, msg.sender)
                && registry.getApproved(agentId) != msg.sender,
            "Self-feedback not allowed"
        );
    }

    /// Per (agent, client) indexes start at 1.
    function _store(uint256 agentId, int128 value, uint8 valueDecimals, string memory tag1, string memory tag2)
        private
        returns (uint64 index)
    {
        index = _lastIndex[agentId][msg.sender] + 1;
        _lastIndex[agentId][msg.sender] = index;
        _feedback[agentId][msg.sender][index] =
            Feedback({value: value, valueDecimals: valueDecimals, isRevoked: false, tag1: tag1, tag2: tag2});
        if (!_clientExists[agentId][msg.sender]) {
            _clientExists[agentId][msg.sender] = true;
            _clients[agentId].push(msg.sender);
        }
    }

    function revokeFeedback(uint256 agentId, uint64 feedbackIndex) external {
        require(feedbackIndex > 0, "index must be > 0");
        require(feedbackIndex <= _lastIndex[agentId][msg.sender], "index out of bounds");
        Feedback storage f = _feedback[agentId][msg.sender][feedbackIndex];
        require(!f.isRevoked, "Already revoked");
        f.isRevoked = true;
        emit FeedbackRevoked(agentId, msg.sender, feedbackIndex);
    }

    function getLastIndex(uint256 agentId, address clientAddress) external view returns (uint64) {
        return _lastIndex[agentId][clientAddress];
    }

    function readFeedback(uint256 agentId, address clientAddress, uint64 feedbackIndex)
        external
        view
        returns (int128 value, uint8 valueDecimals, string memory tag1, string memory tag2, bool isRevoked)
    {
        require(feedbackIndex > 0, "index must be > 0");
        require(feedbackIndex <= _lastIndex[agentId][clientAddress], "index out of bounds");
        Feedback storage f = _feedback[agentId][clientAddress][feedbackIndex];
        return (f.value, f.valueDecimals, f.tag1, f.tag2, f.isRevoked);
    }

    function getClients(uint256 agentId) external view returns (address[] memory) {
        return _clients[agentId];
    }
}
