// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Minimal ERC-1271 smart-contract wallet owned by one EOA, so the devnet can exercise
/// the contract-wallet paths: Permit2 payments and sign-in (ERC-1271, and EIP-6492 before
/// it is deployed). The owner signs hashes directly with its key.
contract SmartWallet {
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;
    uint256 internal constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    event Executed(address indexed to, uint256 value, bytes data);

    address public owner;

    constructor(address owner_) {
        owner = owner_;
    }

    receive() external payable {}

    /// Valid when the 65-byte low-s signature over exactly `hash` recovers to the owner.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if ((v != 27 && v != 28) || uint256(s) > HALF_ORDER) return 0xffffffff;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? MAGIC_VALUE : bytes4(0xffffffff);
    }

    /// Owner-only call, e.g. USDG.approve(Permit2, max) or IdentityRegistry.register(uri).
    function execute(address to, uint256 value, bytes calldata data) external returns (bytes memory result) {
        require(msg.sender == owner, "SmartWallet: not owner");
        bool ok;
        (ok, result) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 0x20), mload(result))
            }
        }
        emit Executed(to, value, data);
    }

    /// Accept ERC-721 safe mints/transfers (an identity-registry token registered by the wallet).
    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC721Received.selector;
    }
}
