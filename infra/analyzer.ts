import { ANALYZER_MEMORY_MB, stageName, TIMEOUTS } from './stage';
import type { Storage } from './storage';

/**
 * The analyzer: a container-image Lambda (models, sharp and onnxruntime are too large for a
 * zip). The API invokes it synchronously with S3 references to the images; it reads and
 * decrypts them itself, so it needs the bucket and the image master key. A raw Lambda (SST's
 * Function does not build container images), so the secret is linked by hand, in the form SST's
 * `Resource` reads (SST_RESOURCE_<name>), never as a bare variable.
 */
export async function createAnalyzer(storage: Storage, imageMasterKey: sst.Secret) {
  // Loaded when the stack runs, not when SST reads the config: `sst install` evaluates this
  // file before the platform's packages (which include docker-build) are installed.
  const dockerBuild = await import('@pulumi/docker-build');
  const repository = new aws.ecr.Repository('AnalyzerImages', {
    name: stageName('analyzer'),
    forceDelete: $app.stage !== 'production',
  });
  const token = aws.ecr.getAuthorizationTokenOutput({ registryId: repository.registryId });
  const image = new dockerBuild.Image('AnalyzerImage', {
    context: { location: '.' },
    dockerfile: { location: 'infra/analyzer/Dockerfile' },
    platforms: ['linux/arm64'],
    push: true,
    tags: [$interpolate`${repository.repositoryUrl}:latest`],
    registries: [{ address: repository.repositoryUrl, username: token.userName, password: token.password }],
  });

  const role = new aws.iam.Role('AnalyzerRole', {
    name: stageName('analyzer'),
    assumeRolePolicy: aws.iam.assumeRolePolicyForPrincipal({ Service: 'lambda.amazonaws.com' }),
  });
  new aws.iam.RolePolicyAttachment('AnalyzerLogs', {
    role: role.name,
    policyArn: 'arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
  });
  new aws.iam.RolePolicy('AnalyzerImagesRead', {
    role: role.id,
    policy: $jsonStringify({
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [$interpolate`${storage.bucket.arn}/*`] },
      ],
    }),
  });

  return new aws.lambda.Function('Analyzer', {
    name: stageName('analyzer'),
    packageType: 'Image',
    imageUri: $interpolate`${repository.repositoryUrl}@${image.digest}`,
    architectures: ['arm64'],
    memorySize: ANALYZER_MEMORY_MB,
    timeout: TIMEOUTS.analyzerFunctionSeconds,
    role: role.arn,
    environment: {
      variables: {
        BUCKET_NAME: storage.bucket.name,
        // One invocation handles one request: one analysis at a time, so each ONNX session gets
        // every vCPU as intra-op threads (analysisThreads, packages/core/src/analysis-concurrency.ts).
        ANALYSIS_CONCURRENCY: '1',
        // glibc's malloc heaps: two instead of eight per core. Every thread that allocated
        // (onnxruntime's, libvips', libuv's) kept a heap of its own holding freed memory: the
        // resident size fell by 35-80 MB for the same CPU (docs/decisions.md, "Memory (issue 17)").
        // Read by glibc when the process starts, hence here and not in the code.
        MALLOC_ARENA_MAX: '2',
        SST_RESOURCE_App: $jsonStringify({ name: $app.name, stage: $app.stage }),
        SST_RESOURCE_ImageMasterKey: $jsonStringify({ type: 'sst.sst.Secret', value: imageMasterKey.value }),
      },
    },
  });
}
