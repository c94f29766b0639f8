// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "./ECDSA.sol";

/// @notice Minimal ERC-1271 smart-contract wallet owned by one EOA, so the devnet can exercise
/// the contract-wallet paths: Permit2 payments and sign-in (ERC-1271, and EIP-6492 before it is
/// deployed). Deployed as EIP-1167 clones by `SmartWalletFactory`.
///
/// Signatures are replay-safe (ERC-7739): the owner never signs an app's bare hash, which
/// another wallet of the same owner (or the owner's own address) would accept too, but that
/// hash nested in this wallet's EIP-712 domain (its address and chain):
/// - PersonalSign: a 65-byte signature over
///   `keccak256(0x1901 ‖ walletDomain ‖ keccak256(abi.encode(PERSONAL_SIGN_TYPEHASH, hash)))`;
/// - TypedDataSign: `sig ‖ appDomain ‖ contents ‖ contentsDescription ‖ uint16(len)`, the
///   owner signing the app's struct wrapped in `TypedDataSign(contents, <this wallet's domain>)`.
contract SmartWallet {
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;
    bytes4 internal constant INVALID = 0xffffffff;
    /// ERC-7739's detection: `isValidSignature(PROBE, "")` answers `SUPPORTED`.
    bytes32 internal constant PROBE = 0x7739773977397739773977397739773977397739773977397739773977397739;
    bytes4 internal constant SUPPORTED = 0x77390001;
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant PERSONAL_SIGN_TYPEHASH = keccak256("PersonalSign(bytes prefixed)");
    bytes32 internal constant NAME_HASH = keccak256("SmartWallet");
    bytes32 internal constant VERSION_HASH = keccak256("1");

    event Executed(address indexed to, uint256 value, bytes data);

    address public owner;

    /// The implementation itself is never anyone's wallet.
    constructor() {
        owner = address(0xdead);
    }

    /// Called once by the factory right after it creates the clone.
    function initialize(address owner_) external {
        require(owner == address(0), "SmartWallet: initialized");
        require(owner_ != address(0), "SmartWallet: no owner");
        owner = owner_;
    }

    receive() external payable {}

    /// ERC-5267: the domain this wallet's signatures are bound to.
    function eip712Domain()
        external
        view
        returns (bytes1, string memory, string memory, uint256, address, bytes32, uint256[] memory)
    {
        return (hex"0f", "SmartWallet", "1", block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (hash == PROBE && signature.length == 0) return SUPPORTED;
        if (signature.length > 65 + 66) {
            (bool parsed, bytes32 nested) = typedDataSignHash(hash, signature);
            if (parsed) return signedByOwner(nested, signature[0:65]) ? MAGIC_VALUE : INVALID;
        }
        if (signature.length != 65) return INVALID;
        bytes32 personal = keccak256(
            abi.encodePacked(
                "\x19\x01", domainSeparator(), keccak256(abi.encode(PERSONAL_SIGN_TYPEHASH, hash))
            )
        );
        return signedByOwner(personal, signature) ? MAGIC_VALUE : INVALID;
    }

    /// The hash the owner signed in the TypedDataSign form, when `signature` is that form and
    /// its app domain and contents make `hash`.
    function typedDataSignHash(bytes32 hash, bytes calldata signature) internal view returns (bool, bytes32) {
        uint256 n = signature.length;
        uint256 descLen = uint16(bytes2(signature[n - 2:n]));
        if (65 + 64 + descLen + 2 != n || descLen == 0) return (false, 0);
        bytes32 appDomain = bytes32(signature[65:97]);
        bytes32 contents = bytes32(signature[97:129]);
        if (keccak256(abi.encodePacked("\x19\x01", appDomain, contents)) != hash) return (false, 0);
        bytes calldata desc = signature[129:129 + descLen];
        (bool ok, bytes calldata name, bytes calldata contentsType) = splitDescription(desc);
        if (!ok) return (false, 0);
        bytes32 typehash = keccak256(
            abi.encodePacked(
                "TypedDataSign(",
                name,
                " contents,string name,string version,uint256 chainId,address verifyingContract,bytes32 salt)",
                contentsType
            )
        );
        bytes32 structHash = keccak256(
            abi.encode(typehash, contents, NAME_HASH, VERSION_HASH, block.chainid, address(this), bytes32(0))
        );
        return (true, keccak256(abi.encodePacked("\x19\x01", appDomain, structHash)));
    }

    /// ERC-7739's contents description: implicit (`contentsType`, the name before its first
    /// `(`) or explicit (`contentsType ‖ contentsName`, the name after the last `)`).
    function splitDescription(bytes calldata desc)
        internal
        pure
        returns (bool, bytes calldata name, bytes calldata contentsType)
    {
        uint256 n = desc.length;
        if (desc[n - 1] == ")") {
            uint256 i = 0;
            while (i < n && desc[i] != "(") i++;
            name = desc[0:i];
            contentsType = desc;
        } else {
            uint256 j = n;
            while (j > 0 && desc[j - 1] != ")") j--;
            name = desc[j:n];
            contentsType = desc[0:j];
        }
        if (name.length == 0 || contentsType.length == 0) return (false, name, contentsType);
        for (uint256 k = 0; k < name.length; k++) {
            bytes1 c = name[k];
            // A name that could break out of the type string is refused.
            if (c == " " || c == "," || c == "(" || c == ")" || c == 0x00) return (false, name, contentsType);
        }
        return (true, name, contentsType);
    }

    function signedByOwner(bytes32 digest, bytes calldata signature) internal view returns (bool) {
        address signer = ECDSA.recover(digest, signature);
        return signer != address(0) && signer == owner;
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
